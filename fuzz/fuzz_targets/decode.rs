//! Any bytes: detection and decoding never panic; a decoded text is never
//! blank, and strict decoding succeeds only where lossy decoding replaces
//! nothing.
#![no_main]

use libfuzzer_sys::fuzz_target;
use std::path::Path;
use zhnovel::decode::decode;

fuzz_target!(|data: &[u8]| {
    let path = Path::new("fuzz.txt");
    let strict = decode(path, data, None, false);
    let lossy = decode(path, data, None, true);
    if let Ok(d) = &strict {
        assert!(!d.text.trim().is_empty());
        assert_eq!(d.replaced, 0);
        let l = lossy.as_ref().expect("lossy decodes what strict decodes");
        assert_eq!(l.text, d.text);
    }
    if let Ok(d) = &lossy {
        assert!(!d.text.trim().is_empty());
    }
});
