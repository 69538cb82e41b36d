//! Book eval: scores a book's entity table against a book-level key (the
//! format of `key::BookKey`), the way `shared/tools/score_book.py` does:
//! - the top rows of each type by count (persons 50, places 20, armies and
//!   factions 10) are `real` when their names meet a key row of that type;
//! - a key row marked main is `found` when some row of its type meets it,
//!   `merged` when exactly one does;
//! - precision over rows with at least `MIN_COUNT` mentions; recall over key
//!   rows with at least `MIN_COUNT` mentions in the book text (canonical and
//!   aliases counted by longest match).
//!
//! Names are compared as given: pass Simplified names (the key is Simplified).

use crate::entity::EntityType;
use crate::eval::ALL_TYPES;
use crate::key::BookKey;
use aho_corasick::{AhoCorasick, MatchKind};
use std::collections::BTreeSet;
use std::fmt;

/// Rows and key entries seen fewer times than this are not scored for P/R.
pub const MIN_COUNT: u64 = 5;

/// One row of the entity table as the scorer sees it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScoredRow {
    pub kind: EntityType,
    pub count: u64,
    /// Every name it goes by (entity, original, variants, aliases), Simplified.
    pub names: Vec<String>,
}

/// The figures of one type.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct TypeScore {
    pub kind: Option<EntityType>,
    pub top: usize,
    pub top_real: usize,
    pub top_rows: usize,
    /// Top rows that meet no key row of their type, in order.
    pub junk: Vec<String>,
    pub main: usize,
    pub main_found: usize,
    pub main_merged: usize,
    pub main_missing: Vec<String>,
    pub precision: (usize, usize),
    pub recall: (usize, usize),
}

/// How many top rows of each type are looked at.
pub fn top_of(kind: EntityType, persons: usize) -> usize {
    match kind {
        EntityType::Person => persons,
        EntityType::Place => 20,
        EntityType::Army | EntityType::Faction => 10,
    }
}

/// Scores `rows` (any order) against `key`, with the book's Simplified text
/// for the key's mention counts.
pub fn score_book(key: &BookKey, rows: &[ScoredRow], text: &str, persons: usize) -> Vec<TypeScore> {
    // Key mentions, longest match over every key name.
    let mut names: Vec<(&str, usize)> = Vec::new();
    for (i, r) in key.rows.iter().enumerate() {
        for n in r.names() {
            names.push((n, i));
        }
    }
    names.sort();
    names.dedup_by(|a, b| a.0 == b.0);
    let mut key_count = vec![0u64; key.rows.len()];
    if !names.is_empty() {
        let ac = AhoCorasick::builder()
            .match_kind(MatchKind::LeftmostLongest)
            .build(names.iter().map(|n| n.0))
            .expect("key names build an automaton");
        for m in ac.find_iter(text) {
            key_count[names[m.pattern().as_usize()].1] += 1;
        }
    }
    let meets = |row: &ScoredRow, k: usize| {
        let kr = &key.rows[k];
        row.kind == kr.kind && kr.names().any(|n| row.names.iter().any(|r| r == n))
    };
    ALL_TYPES
        .iter()
        .map(|&kind| {
            let mut of_type: Vec<&ScoredRow> = rows.iter().filter(|r| r.kind == kind).collect();
            of_type.sort_by(|a, b| b.count.cmp(&a.count).then_with(|| a.names.cmp(&b.names)));
            let keyed: Vec<usize> = (0..key.rows.len())
                .filter(|&k| key.rows[k].kind == kind)
                .collect();
            let real = |r: &ScoredRow| keyed.iter().any(|&k| meets(r, k));
            let top = top_of(kind, persons);
            let mut s = TypeScore {
                kind: Some(kind),
                top,
                top_rows: of_type.len().min(top),
                ..Default::default()
            };
            for r in of_type.iter().take(top) {
                if real(r) {
                    s.top_real += 1;
                } else {
                    s.junk.push(r.names[0].clone());
                }
            }
            for &k in keyed.iter().filter(|&&k| key.rows[k].main) {
                s.main += 1;
                let n = of_type.iter().filter(|r| meets(r, k)).count();
                if n > 0 {
                    s.main_found += 1;
                } else {
                    s.main_missing.push(key.rows[k].canonical.clone());
                }
                if n == 1 {
                    s.main_merged += 1;
                }
            }
            let frequent: Vec<&&ScoredRow> =
                of_type.iter().filter(|r| r.count >= MIN_COUNT).collect();
            s.precision = (frequent.iter().filter(|r| real(r)).count(), frequent.len());
            let wanted: BTreeSet<usize> = keyed
                .iter()
                .copied()
                .filter(|&k| key_count[k] >= MIN_COUNT)
                .collect();
            s.recall = (
                wanted
                    .iter()
                    .filter(|&&k| of_type.iter().any(|r| meets(r, k)))
                    .count(),
                wanted.len(),
            );
            s
        })
        .collect()
}

fn ratio(f: (usize, usize)) -> String {
    if f.1 == 0 {
        "-".to_string()
    } else {
        format!("{:.2}", f.0 as f64 / f.1 as f64)
    }
}

impl fmt::Display for TypeScore {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let kind = self.kind.map_or("?", EntityType::as_str);
        writeln!(
            f,
            "{kind}: top-{} real {}/{}; main found {}/{}, merged {}/{}; P(count>=5) {} ({}/{}); R {} ({}/{})",
            self.top,
            self.top_real,
            self.top_rows,
            self.main_found,
            self.main,
            self.main_merged,
            self.main,
            ratio(self.precision),
            self.precision.0,
            self.precision.1,
            ratio(self.recall),
            self.recall.0,
            self.recall.1
        )?;
        if !self.junk.is_empty() {
            writeln!(f, "  junk: {}", self.junk.join(" "))?;
        }
        if !self.main_missing.is_empty() {
            writeln!(f, "  main missing: {}", self.main_missing.join(" "))?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    fn row(kind: EntityType, count: u64, names: &[&str]) -> ScoredRow {
        ScoredRow {
            kind,
            count,
            names: names.iter().map(|s| s.to_string()).collect(),
        }
    }

    #[test]
    fn scores_top_main_merged_precision_and_recall() {
        let key = BookKey::parse(
            Path::new("k"),
            "type\tcanonical\taliases\tmain\tside\tnote\n\
             person\t甲乙\t乙爷\tyes\t\t\n\
             person\t丙丁\t\tyes\t\t\n\
             place\t戊城\t\t\t\t\n",
        )
        .unwrap();
        let text = "甲乙甲乙甲乙乙爷乙爷丙丁丙丁丙丁丙丁丙丁戊城";
        let rows = vec![
            row(EntityType::Person, 9, &["甲乙"]),
            row(EntityType::Person, 6, &["乙爷"]),
            row(EntityType::Person, 7, &["某某"]),
            row(EntityType::Place, 1, &["戊城"]),
        ];
        let s = score_book(&key, &rows, text, 50);
        let p = &s[0];
        assert_eq!((p.top_real, p.top_rows), (2, 3));
        assert_eq!(p.junk, vec!["某某"]);
        assert_eq!((p.main_found, p.main_merged, p.main), (1, 0, 2));
        assert_eq!(p.main_missing, vec!["丙丁"]);
        assert_eq!(p.precision, (2, 3));
        // 甲乙 (5 with its alias) and 丙丁 (5) are frequent; 甲乙 is found.
        assert_eq!(p.recall, (1, 2));
        let l = &s[1];
        assert_eq!((l.top_real, l.precision, l.recall), (1, (0, 0), (0, 0)));
        assert!(p
            .to_string()
            .starts_with("person: top-50 real 2/3; main found 1/2, merged 0/2"));
    }
}
