//! The concordance's plain view and typed JSON Lines: numbers as numbers,
//! `|`-separated lists as arrays.

use crate::rows::{Columns, KwicRow};
use std::io::Write;

/// The plain view of concordance lines: chapter and offset, the left
/// context right-aligned by display width (a CJK character is two columns),
/// the match, the right context. No header.
pub fn write_kwic_plain<W: Write>(out: &mut W, rows: &[KwicRow]) -> std::io::Result<()> {
    use unicode_width::UnicodeWidthStr;
    let left = rows.iter().map(|r| r.left.width()).max().unwrap_or(0);
    let matched = rows.iter().map(|r| r.matched.width()).max().unwrap_or(0);
    for r in rows {
        let pad = " ".repeat(left - r.left.width());
        let after = " ".repeat(matched - r.matched.width());
        writeln!(
            out,
            "{:>4} {:>7}  {pad}{}  {}{after}  {}",
            r.chapter, r.offset, r.left, r.matched, r.right
        )?;
    }
    Ok(())
}

/// Columns that hold `|`-separated lists in CSV: arrays of strings in JSON.
const LIST_COLUMNS: &[&str] = &["variants", "aliases", "evidence"];
/// Columns that hold decimals written to a fixed precision: numbers in JSON.
pub(super) const DECIMAL_COLUMNS: &[&str] = &["confidence", "pmi"];

/// Writes a row as one JSON object with typed values, keys in column order:
/// the list columns as arrays of strings (an empty cell is an empty array),
/// the decimal columns as numbers.
pub fn write_typed_json<W: Write, R: Columns>(out: &mut W, row: &R) -> std::io::Result<()> {
    use serde_json::Value;
    let Value::Object(mut map) = serde_json::to_value(row)? else {
        return serde_json::to_writer(&mut *out, row).map_err(Into::into);
    };
    out.write_all(b"{")?;
    for (i, key) in R::COLUMNS.iter().enumerate() {
        let mut v = map.remove(*key).unwrap_or(Value::Null);
        if let Value::String(s) = &v {
            if LIST_COLUMNS.contains(key) {
                v = Value::Array(
                    s.split('|')
                        .filter(|item| !item.is_empty())
                        .map(|item| Value::String(item.to_string()))
                        .collect(),
                );
            } else if DECIMAL_COLUMNS.contains(key) {
                if let Ok(n) = s.parse::<serde_json::Number>() {
                    v = Value::Number(n);
                }
            }
        }
        if i > 0 {
            out.write_all(b",")?;
        }
        serde_json::to_writer(&mut *out, key)?;
        out.write_all(b":")?;
        serde_json::to_writer(&mut *out, &v)?;
    }
    out.write_all(b"}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_become_arrays_and_decimals_numbers() {
        #[derive(serde::Serialize)]
        struct Row {
            entity: &'static str,
            count: u64,
            aliases: &'static str,
            variants: &'static str,
            confidence: &'static str,
        }
        impl Columns for Row {
            const COLUMNS: &'static [&'static str] =
                &["entity", "count", "aliases", "variants", "confidence"];
        }
        let row = Row {
            entity: "鲁智深",
            count: 3,
            aliases: "智深|鲁达",
            variants: "",
            confidence: "0.99",
        };
        let mut buf = Vec::new();
        write_typed_json(&mut buf, &row).unwrap();
        assert_eq!(
            String::from_utf8(buf).unwrap(),
            r#"{"entity":"鲁智深","count":3,"aliases":["智深","鲁达"],"variants":[],"confidence":0.99}"#
        );
    }
}
