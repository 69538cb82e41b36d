//! Concordance (key word in context): every mention of one entity with the
//! text around it, from the same mention rows as mentions.csv, so that a
//! line's (chapter, offset) is a mention's (chapter, start).

use crate::analysis::BookTables;
use crate::book::ChapterText;
use crate::rows::{EntityRow, KwicRow};
use crate::script::Converter;

/// The entity a name asks for: the first row of entities.csv (most
/// mentioned) whose name, spelling as written, variant or alias is `name`,
/// or `name` converted to the analysis script.
pub fn find_entity<'t>(
    tables: &'t BookTables,
    name: &str,
    converter: &dyn Converter,
) -> Option<&'t EntityRow> {
    let converted = converter.convert(name);
    let is = |s: &str| s == name || s == converted;
    tables.entities.iter().find(|e| {
        is(&e.entity)
            || is(&e.original)
            || e.variants.iter().any(|v| is(v))
            || e.aliases.iter().any(|a| is(a))
    })
}

/// One row per mention of `entity`, in chapter and text order, with
/// `width` characters of context each side (line breaks shown as spaces).
pub fn kwic(
    chapters: &[ChapterText],
    tables: &BookTables,
    entity: &EntityRow,
    width: usize,
) -> Vec<KwicRow> {
    let mut rows = Vec::new();
    let mut text: Option<(usize, Vec<char>)> = None;
    for m in &tables.mentions {
        if *m.entity != *entity.entity || m.kind != entity.kind {
            continue;
        }
        if text.as_ref().is_none_or(|(c, _)| *c != m.chapter) {
            let chars = chapters
                .get(m.chapter - 1)
                .map(|c| c.text.original_text().chars().collect())
                .unwrap_or_default();
            text = Some((m.chapter, chars));
        }
        let chars = &text.as_ref().expect("set above").1;
        let piece = |from: usize, to: usize| -> String {
            chars[from.min(chars.len())..to.min(chars.len())]
                .iter()
                .map(|&c| if c == '\n' || c == '\r' { ' ' } else { c })
                .collect()
        };
        rows.push(KwicRow {
            chapter: m.chapter,
            offset: m.start,
            left: piece(m.start.saturating_sub(width), m.start),
            matched: m.surface.to_string(),
            right: piece(m.end, m.end + width),
            entity: entity.entity.clone(),
            kind: entity.kind,
        });
    }
    rows
}
