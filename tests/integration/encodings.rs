//! The seeds re-encoded to GB18030, Big5, UTF-16 and UTF-8 with BOM give the
//! same analysis as the UTF-8 originals, and chapters.csv names the encoding.

use crate::util::*;
use encoding_rs::{BIG5, GB18030};

fn utf16(text: &str, big_endian: bool) -> Vec<u8> {
    let mut out = if big_endian {
        vec![0xFE, 0xFF]
    } else {
        vec![0xFF, 0xFE]
    };
    for unit in text.encode_utf16() {
        out.extend(if big_endian {
            unit.to_be_bytes()
        } else {
            unit.to_le_bytes()
        });
    }
    out
}

/// Entity rows without the `original`/`variants` columns, which legitimately
/// differ when the text itself was converted for Big5.
fn entity_summary(dir: &std::path::Path) -> Vec<(String, String, String)> {
    records(&dir.join("entities.csv"))
        .into_iter()
        .map(|r| (r[0].to_string(), r[1].to_string(), r[2].to_string()))
        .collect()
}

fn analyze_one(file: &std::path::Path, out: &std::path::Path) {
    zhnovel(&["analyze", p(file), "-o", p(out), "-q"]).success();
}

#[test]
fn seeds_in_every_encoding_give_the_same_tables() {
    let d = Dir::new();
    for name in SEEDS {
        let text = seed(name);
        let reference = d.path(&format!("ref-{name}"));
        analyze_one(&seed_path(name), &reference);
        let expected = entity_summary(&reference);
        assert_eq!(
            records(&reference.join("chapters.csv"))[0][3].to_string(),
            "utf-8"
        );

        let (gb, _, unmappable) = GB18030.encode(&text);
        assert!(!unmappable);
        let mut bom8 = vec![0xEF, 0xBB, 0xBF];
        bom8.extend(text.as_bytes());
        let cases: Vec<(&str, Vec<u8>)> = vec![
            ("gb18030", gb.into_owned()),
            ("utf-16le", utf16(&text, false)),
            ("utf-16be", utf16(&text, true)),
            ("utf-8", bom8),
        ];
        for (encoding, bytes) in cases {
            let file = d.write(&format!("{encoding}/{name}"), &bytes);
            let out = d.path(&format!("out-{encoding}-{name}"));
            analyze_one(&file, &out);
            let chapters = records(&out.join("chapters.csv"));
            assert_eq!(&chapters[0][3], encoding, "{name}");
            assert_eq!(entity_summary(&out), expected, "{name} in {encoding}");
        }
    }
}

#[test]
fn big5_seeds_are_detected_and_analyzed_like_their_utf8_form() {
    // Big5 cannot hold every character of the seeds (Simplified ones), so
    // convert to Taiwan Traditional first, as the issue says.
    let d = Dir::new();
    for name in SEEDS {
        let tw = zhnovel(&["convert", "--config", "s2tw", p(&seed_path(name))])
            .success()
            .stdout();
        let (big5, _, unmappable) = BIG5.encode(&tw);
        let utf8 = d.write(&format!("utf8/{name}"), tw.as_bytes());
        let file = d.write(&format!("big5/{name}"), &big5);
        let (ref_out, out) = (d.path(&format!("r-{name}")), d.path(&format!("o-{name}")));
        analyze_one(&utf8, &ref_out);
        let mut args = vec!["analyze", p(&file), "-o", p(&out), "-q"];
        if unmappable {
            // A character Big5 lacks became an HTML escape; still valid Big5.
            args.push("--lossy");
        }
        zhnovel(&args).success();
        assert_eq!(&records(&out.join("chapters.csv"))[0][3], "big5", "{name}");
        if !unmappable {
            assert_eq!(entity_summary(&out), entity_summary(&ref_out), "{name}");
        }
    }
}

#[test]
fn forced_encoding_overrides_detection_and_bad_bytes_name_the_offset() {
    let d = Dir::new();
    let (gb, _, _) = GB18030.encode("耶律挞烈率契丹兵至锦州。");
    let file = d.write("gb.txt", &gb);
    zhnovel(&[
        "analyze",
        p(&file),
        "-o",
        p(&d.path("out")),
        "--encoding",
        "gbk",
        "-q",
    ])
    .success();
    assert_eq!(&records(&d.path("out/chapters.csv"))[0][3], "gb18030");
    zhnovel(&[
        "analyze",
        p(&file),
        "-o",
        p(&d.path("out2")),
        "--encoding",
        "utf-8",
    ])
    // 耶 is D2 AE in GB18030, which is also valid UTF-8 (U+04AE); 律 (C2 C9) is not.
    .fails(1, "byte offset 2");
    assert!(!d.path("out2/entities.csv").exists());
}
