//! Decode: bytes → text. Detects the encoding of each file (BOM, then
//! BOM-less UTF-16 when the bytes hold NULs, then valid or mostly valid
//! UTF-8, then chardetng among the Chinese legacy encodings) unless one is
//! forced. It never converts script.

use crate::error::{Error, Result};
use encoding_rs::{Encoding, BIG5, GB18030, GBK, UTF_16BE, UTF_16LE, UTF_8};
use std::path::Path;

/// Text decoded from one file and the encoding that was used.
#[derive(Debug, Clone)]
pub struct Decoded {
    pub text: String,
    /// WHATWG name of the encoding, lower-case (`utf-8`, `gb18030`, `big5`, `utf-16le`…).
    pub encoding: &'static str,
    /// Characters that did not decode and were replaced by U+FFFD (only with `lossy`).
    pub replaced: usize,
}

/// Looks up an encoding by a name users type (`gbk`, `GB2312`, `big5`, `utf8`…).
/// Only the encodings Chinese text comes in are accepted: a label that
/// encoding_rs knows for another script (`latin1`, `shift_jis`) would decode
/// every byte into mojibake without an error, so it is refused.
pub fn encoding_for_name(name: &str) -> Result<&'static Encoding> {
    let lower = name.trim().to_ascii_lowercase();
    let alias = match lower.as_str() {
        "utf8" => "utf-8",
        "utf16" | "utf16le" => "utf-16le",
        "utf16be" => "utf-16be",
        "gbk" | "gb2312" | "cp936" => "gb18030",
        "big5-hkscs" | "cp950" => "big5",
        other => other,
    };
    Encoding::for_label(alias.as_bytes())
        .filter(|e| [UTF_8, UTF_16LE, UTF_16BE, GB18030, GBK, BIG5].contains(e))
        .ok_or_else(|| Error::UnknownEncoding {
            name: name.to_string(),
        })
}

/// Decodes `bytes` read from `path`. With `forced`, that encoding is used;
/// otherwise it is detected. Without `lossy`, malformed bytes are an error
/// naming the byte offset.
pub fn decode(
    path: &Path,
    bytes: &[u8],
    forced: Option<&'static Encoding>,
    lossy: bool,
) -> Result<Decoded> {
    if bytes.is_empty() {
        return Err(Error::Empty {
            path: path.to_path_buf(),
        });
    }
    let (encoding, bom_len) = match forced {
        Some(enc) => {
            let bom = Encoding::for_bom(bytes).filter(|(e, _)| *e == enc);
            (enc, bom.map_or(0, |(_, n)| n))
        }
        None => detect(bytes),
    };
    let body = &bytes[bom_len..];
    if encoding != UTF_16LE && encoding != UTF_16BE {
        if let Some(offset) = body.iter().position(|&b| b == 0) {
            return Err(Error::Binary {
                path: path.to_path_buf(),
                offset: offset + bom_len,
            });
        }
    }
    let mut decoder = encoding.new_decoder_without_bom_handling();
    let mut text = String::with_capacity(
        decoder
            .max_utf8_buffer_length_without_replacement(body.len())
            .unwrap_or(body.len() * 3),
    );
    let mut replaced = 0;
    let mut consumed = 0;
    loop {
        let (result, read) =
            decoder.decode_to_string_without_replacement(&body[consumed..], &mut text, true);
        consumed += read;
        match result {
            encoding_rs::DecoderResult::InputEmpty => break,
            encoding_rs::DecoderResult::OutputFull => {
                text.reserve(body.len() - consumed + 16);
            }
            encoding_rs::DecoderResult::Malformed(bad, pending) => {
                if !lossy {
                    let offset = bom_len + consumed - bad as usize - pending as usize;
                    return Err(Error::Undecodable {
                        path: path.to_path_buf(),
                        encoding: encoding_label(encoding),
                        offset,
                    });
                }
                replaced += 1;
                text.push('\u{FFFD}');
            }
        }
    }
    if text.trim().is_empty() {
        return Err(Error::Empty {
            path: path.to_path_buf(),
        });
    }
    Ok(Decoded {
        text,
        encoding: encoding_label(encoding),
        replaced,
    })
}

fn encoding_label(encoding: &'static Encoding) -> &'static str {
    match encoding.name() {
        "UTF-8" => "utf-8",
        "UTF-16LE" => "utf-16le",
        "UTF-16BE" => "utf-16be",
        "gb18030" => "gb18030",
        "GBK" => "gbk",
        "Big5" => "big5",
        _ => "other",
    }
}

/// Picks an encoding and the length of its BOM.
fn detect(bytes: &[u8]) -> (&'static Encoding, usize) {
    if let Some((enc, n)) = Encoding::for_bom(bytes) {
        return (enc, n);
    }
    // Text in UTF-8 or a legacy encoding has no NUL byte; UTF-16 has one in
    // every ASCII character and line break (and in 一, U+4E00).
    if bytes.contains(&0) {
        if let Some(enc) = guess_utf16(bytes) {
            return (enc, 0);
        }
    }
    if mostly_utf8(bytes) {
        return (UTF_8, 0);
    }
    // Chinese legacy encodings: chardetng's guess, checked against the other
    // candidate. GBK and Big5 byte ranges overlap, and on short texts
    // chardetng can pick the wrong one; the right decoding is the one full of
    // common characters, the wrong one is full of rare ones.
    let mut detector = chardetng::EncodingDetector::new(chardetng::Iso2022JpDetection::Deny);
    detector.feed(bytes, true);
    let guess = detector.guess(None, chardetng::Utf8Detection::Allow);
    let mut best: Option<(&'static Encoding, usize)> = None;
    for enc in [GB18030, BIG5] {
        let (text, had_errors) = enc.decode_without_bom_handling(bytes);
        if had_errors {
            continue;
        }
        let score = common_char_count(&text);
        if best.is_none_or(|(_, b)| score > b) {
            best = Some((enc, score));
        }
    }
    match best {
        Some((enc, _)) => (enc, 0),
        None if guess == BIG5 => (BIG5, 0),
        // Neither decodes cleanly: GB18030 covers the most, so its error
        // offset is the most useful to report.
        None => (GB18030, 0),
    }
}

/// Valid UTF-8, or UTF-8 with a few bad bytes (a truncated download, one
/// corrupted character): at least 8 well-formed multi-byte characters per
/// malformed sequence. GB18030 or Big5 read as UTF-8 has about as many
/// malformed sequences as well-formed ones, so it never passes; a broken
/// UTF-8 file is then reported (or, with `--lossy`, repaired) as UTF-8
/// rather than decoded as legacy mojibake.
fn mostly_utf8(bytes: &[u8]) -> bool {
    if std::str::from_utf8(bytes).is_ok() {
        return true;
    }
    let (mut multibyte, mut malformed) = (0usize, 0usize);
    for chunk in bytes.utf8_chunks() {
        multibyte += chunk.valid().chars().filter(|c| !c.is_ascii()).count();
        if !chunk.invalid().is_empty() {
            malformed += 1;
        }
    }
    malformed == 0 || multibyte >= 8 * malformed
}

/// The most frequent characters of Chinese prose, Simplified and Traditional.
const COMMON_CHARS: &str = "的一是了不在有人他这這中大来來上个個们們到说說为為子和你地出道也时時年得就那要下以生会會自着著去之过過家学學对對可她里裏後后小么麼心多天而能好都然没沒日于於起还還发發成事只作当當想看文无無开開手十用主行方又如前所本见見经經头頭面公同三已老从從动動两兩长長知民样樣现現分将將外但身些与與高意进進把法此实實回二理美点點月明其种種声聲全工己话話儿兒者向情部正名定女问問力机機给給等几幾很业業最间間新什打便位因重被走电電四第门門相次东東政海口使教西再平真听聽世气氣信北少关關并內加化由却卻代军軍产產入先山五太水万萬市眼体體别別處处总總才场場师師书書比住员員九笑性通目华華报報立马馬命张張活难難神数數件安表原车車白应應路期叫死常提感金何更反合放做系計计城兵將";

fn common_char_count(text: &str) -> usize {
    text.chars().filter(|c| COMMON_CHARS.contains(*c)).count()
}

/// BOM-less UTF-16, for bytes that hold NULs. Chinese prose has few of
/// them (about 3 % of its bytes: ASCII, line breaks, and characters such as
/// 一 whose low byte is 0), and they fall on both even and odd positions, so
/// the share of NULs proves nothing. Instead both byte orders are decoded,
/// and one counts if it decodes without error and reads as text: almost no
/// control characters, and more common Chinese characters and ASCII
/// letters than the other order (swapped bytes give rare characters).
/// Binary data fails the control-character test in both orders.
/// How many characters `guess_utf16` scores (the look-up is a scan of
/// `COMMON_CHARS`; the start of a book says enough).
const SCORED_CHARS: usize = 100_000;

fn guess_utf16(bytes: &[u8]) -> Option<&'static Encoding> {
    if bytes.len() < 2 || !bytes.len().is_multiple_of(2) {
        return None;
    }
    let mut best: Option<(&'static Encoding, usize)> = None;
    for enc in [UTF_16LE, UTF_16BE] {
        let (text, had_errors) = enc.decode_without_bom_handling(bytes);
        if had_errors {
            continue;
        }
        let (mut chars, mut controls, mut score) = (0usize, 0usize, 0usize);
        for c in text.chars() {
            chars += 1;
            if c.is_control() && !matches!(c, '\n' | '\r' | '\t') {
                controls += 1;
            } else if chars <= SCORED_CHARS
                && (c.is_ascii_alphanumeric() || COMMON_CHARS.contains(c))
            {
                score += 1;
            }
        }
        if controls * 100 > chars || score == 0 {
            continue;
        }
        if best.is_none_or(|(_, b)| score > b) {
            best = Some((enc, score));
        }
    }
    best.map(|(enc, _)| enc)
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEXT: &str = "耶律撻烈率契丹兵至錦州。\n北平軍守永樂城。\n";

    fn roundtrip(bytes: &[u8]) -> Decoded {
        decode(Path::new("t.txt"), bytes, None, false).unwrap()
    }

    #[test]
    fn detects_each_encoding() {
        let (gb, _, _) = GB18030.encode(TEXT);
        let d = roundtrip(&gb);
        assert_eq!((d.text.as_str(), d.encoding), (TEXT, "gb18030"));

        let (big5, _, bad) = BIG5.encode(TEXT);
        assert!(!bad);
        let d = roundtrip(&big5);
        assert_eq!((d.text.as_str(), d.encoding), (TEXT, "big5"));

        let mut le = vec![0xFF, 0xFE];
        le.extend(TEXT.encode_utf16().flat_map(|u| u.to_le_bytes()));
        let d = roundtrip(&le);
        assert_eq!((d.text.as_str(), d.encoding), (TEXT, "utf-16le"));

        let mut bom8 = vec![0xEF, 0xBB, 0xBF];
        bom8.extend(TEXT.as_bytes());
        let d = roundtrip(&bom8);
        assert_eq!((d.text.as_str(), d.encoding), (TEXT, "utf-8"));
    }

    #[test]
    fn bomless_utf16_with_ascii_is_not_mistaken_for_legacy() {
        let text = "Chapter 1\n第一章 耶律撻烈\n";
        let be: Vec<u8> = text.encode_utf16().flat_map(|u| u.to_be_bytes()).collect();
        let d = roundtrip(&be);
        assert_eq!((d.text.as_str(), d.encoding), (text, "utf-16be"));
    }

    #[test]
    fn bomless_utf16_without_ascii_and_with_nuls_on_both_sides() {
        // 一 is U+4E00: its low byte is NUL, so NULs fall on the "wrong"
        // side too; the byte order that reads as common characters wins.
        let text = "一二三，一个人走了一天。\nAB一";
        let le: Vec<u8> = text.encode_utf16().flat_map(|u| u.to_le_bytes()).collect();
        assert_eq!(roundtrip(&le).encoding, "utf-16le");
        let be: Vec<u8> = text.encode_utf16().flat_map(|u| u.to_be_bytes()).collect();
        assert_eq!(roundtrip(&be).encoding, "utf-16be");
    }

    #[test]
    fn mostly_utf8_with_a_bad_byte_stays_utf8() {
        let mut bytes = TEXT.as_bytes().to_vec();
        bytes.insert(6, 0xFF);
        let err = decode(Path::new("x.txt"), &bytes, None, false).unwrap_err();
        assert!(
            err.to_string().contains("not valid utf-8 at byte offset 6"),
            "{err}"
        );
        let d = decode(Path::new("x.txt"), &bytes, None, true).unwrap();
        assert_eq!((d.encoding, d.replaced), ("utf-8", 1));
        // GB18030 prose is not mistaken for broken UTF-8.
        let (gb, _, _) = GB18030.encode(TEXT);
        assert!(!mostly_utf8(&gb));
    }

    #[test]
    fn malformed_utf8_names_the_offset() {
        let mut bytes = "第一章".as_bytes().to_vec();
        bytes.extend([0xE4, 0xB8]); // truncated character
        bytes.extend("abc".as_bytes());
        let err = decode(Path::new("x.txt"), &bytes, Some(UTF_8), false).unwrap_err();
        assert!(err.to_string().contains("byte offset 9"), "{err}");
        let d = decode(Path::new("x.txt"), &bytes, Some(UTF_8), true).unwrap();
        assert_eq!(d.replaced, 1);
    }

    #[test]
    fn binary_and_empty_are_errors() {
        assert!(matches!(
            decode(Path::new("b"), b"\x89PNG\r\n\x1a\n\0\0\0", None, false),
            Err(Error::Binary { .. })
        ));
        assert!(matches!(
            decode(Path::new("e"), b"", None, false),
            Err(Error::Empty { .. })
        ));
    }
}
