//! Rows of `quotes.csv`, `dialogue.csv` and `relations.csv` (written by
//! `output::write_table`, like every table).

use super::quotes::Quote;
use crate::entity::EntityId;
use crate::rows::Columns;
use crate::script::Normalized;
use serde::Serialize;
use std::collections::HashMap;

/// quotes.csv
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct QuoteRow {
    pub chapter: usize,
    /// Character offsets into the chapter's cleaned text (as mentions.csv).
    pub start: usize,
    pub end: usize,
    pub quote: String,
    pub speaker: String,
    /// The speaker as named near the quotation.
    pub mention: String,
    pub addressee: String,
    pub method: &'static str,
    pub confidence: String,
}

/// dialogue.csv
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct DialogueRow {
    pub speaker: String,
    pub addressee: String,
    pub count: u64,
}

/// relations.csv
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct RelationRow {
    pub source: String,
    pub relation: &'static str,
    pub target: String,
    pub count: u64,
    pub chapters: u64,
    pub first_chapter: usize,
    /// One sentence of evidence, as written.
    pub example: String,
}

impl Columns for QuoteRow {
    const COLUMNS: &'static [&'static str] = &[
        "chapter",
        "start",
        "end",
        "quote",
        "speaker",
        "mention",
        "addressee",
        "method",
        "confidence",
    ];
}

impl Columns for DialogueRow {
    const COLUMNS: &'static [&'static str] = &["speaker", "addressee", "count"];
}

impl Columns for RelationRow {
    const COLUMNS: &'static [&'static str] = &[
        "source",
        "relation",
        "target",
        "count",
        "chapters",
        "first_chapter",
        "example",
    ];
}

/// The rows of a chapter's quotations, in text order. The quotation and the
/// mention are written as in the text (like mentions.csv's `surface`);
/// `start..end` slices `quote` out of the chapter's cleaned text, and the
/// normalized text at the same offsets is its Simplified form.
pub fn quote_rows(
    chapter: usize,
    text: &Normalized,
    quotes: &[Quote],
    names: &[String],
) -> Vec<QuoteRow> {
    let original = text;
    let text = original.text.as_str();
    let name = |id: Option<EntityId>| id.map_or(String::new(), |i| names[i as usize].clone());
    // Character offsets by walking the text once (quotations are sorted).
    let mut byte = 0;
    let mut char = 0;
    let mut char_of = |b: usize| {
        if b >= byte {
            char += text[byte..b].chars().count();
        } else {
            char -= text[b..byte].chars().count();
        }
        byte = b;
        char
    };
    quotes
        .iter()
        .map(|q| QuoteRow {
            chapter,
            start: char_of(q.start),
            end: char_of(q.end),
            quote: original.original(q.start, q.end).to_string(),
            speaker: name(q.speaker),
            mention: q
                .mention
                .map_or(String::new(), |(s, e)| original.original(s, e).to_string()),
            addressee: name(q.addressee),
            method: q.method.as_str(),
            confidence: format!("{:.2}", q.confidence),
        })
        .collect()
}

/// Speaker → addressee counts, count descending, then names, from the
/// counts by ids (ids written alike are one row, as their quotes read).
pub fn dialogue_rows(
    by_id: &HashMap<(EntityId, EntityId), u64>,
    names: &[String],
) -> Vec<DialogueRow> {
    let mut counts: HashMap<(&str, &str), u64> = HashMap::new();
    for (&(s, a), &n) in by_id {
        let (s, a) = (names[s as usize].as_str(), names[a as usize].as_str());
        if !s.is_empty() && !a.is_empty() {
            *counts.entry((s, a)).or_default() += n;
        }
    }
    let mut rows: Vec<DialogueRow> = counts
        .into_iter()
        .map(|((s, a), count)| DialogueRow {
            speaker: s.to_string(),
            addressee: a.to_string(),
            count,
        })
        .collect();
    rows.sort_by(|a, b| {
        b.count
            .cmp(&a.count)
            .then_with(|| a.speaker.cmp(&b.speaker))
            .then_with(|| a.addressee.cmp(&b.addressee))
    });
    rows
}
