//! Quotations of a chapter and who speaks them.
//!
//! A quotation is the text inside “…”, 「…」, 『…』 or ‘…’ (nested marks
//! give nested quotations), or in classical text without marks the speech
//! after 曰：/道： up to the end of the paragraph (or the sentence before
//! the next such speech). An unclosed mark ends at the paragraph's end.
//!
//! The speaker is read from the lead-in (the text between the last sentence
//! end or quotation and the opening mark) when it ends with a speech verb:
//! the first person named there who is not the one spoken to (`explicit`,
//! or `alias` when named by another name than the entity's own), else a
//! pronoun (他道) resolved to the last person named before (`pronoun`); the
//! same after the closing mark (“…”X道). A lead-in that ends with a colon
//! but no speech verb (X摇了摇头：) is spoken by the person or pronoun that
//! opens one of its last clauses. A quotation without a speaker of its
//! own inside a spoken one is the outer speaker's. A speech without a named
//! speaker in an exchange is the reply of the one last spoken to, or the
//! turn of the speaker before last (`alternation`). A short quotation in the
//! middle of narration with no speech verb (人称“铁臂”) is a term: nobody
//! speaks it (`other`, no speaker).

use super::{ends_with_any, starts_with_any, Cues, Span};
use crate::entity::{Catalog, EntityId, EntityType};

/// How the speaker of a quotation was found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Method {
    Explicit,
    Alias,
    Pronoun,
    Alternation,
    Other,
}

impl Method {
    pub fn as_str(self) -> &'static str {
        match self {
            Method::Explicit => "explicit",
            Method::Alias => "alias",
            Method::Pronoun => "pronoun",
            Method::Alternation => "alternation",
            Method::Other => "other",
        }
    }
}

/// One quotation: byte offsets of its text (without the marks) in the chapter.
#[derive(Debug, Clone, PartialEq)]
pub struct Quote {
    pub start: usize,
    pub end: usize,
    /// 0 for a quotation in narration, 1 inside another, …
    pub depth: u32,
    /// Is it speech (rather than a term quoted in narration)?
    pub speech: bool,
    pub speaker: Option<EntityId>,
    /// Byte range of the mention that names the speaker.
    pub mention: Option<(usize, usize)>,
    pub addressee: Option<EntityId>,
    pub method: Method,
    pub confidence: f32,
}

/// Marks: where the quotation text starts and ends, where the opening mark
/// starts and the closing mark ends (for unmarked speech: the colon and the
/// text's end).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Marks {
    pub start: usize,
    pub end: usize,
    pub open: usize,
    pub close: usize,
    pub depth: u32,
}

fn closer(c: char) -> Option<char> {
    match c {
        '“' => Some('”'),
        '「' => Some('」'),
        '『' => Some('』'),
        '‘' => Some('’'),
        _ => None,
    }
}

/// Every quotation of `text`, sorted by start.
pub fn find_marks(text: &str) -> Vec<Marks> {
    let mut out = Vec::new();
    // (content start, open position, expected closer)
    let mut stack: Vec<(usize, usize, char)> = Vec::new();
    let mut iter = text.char_indices().peekable();
    while let Some((i, c)) = iter.next() {
        if c == '\n' {
            while let Some((s, o, _)) = stack.pop() {
                push_trimmed(&mut out, text, s, i, o, i, stack.len() as u32);
            }
            continue;
        }
        if let Some(cl) = closer(c) {
            // ’ may close ‘ only; “ inside “…” nests.
            stack.push((i + c.len_utf8(), i, cl));
            continue;
        }
        if let Some(pos) = stack.iter().rposition(|&(_, _, cl)| cl == c) {
            while stack.len() > pos + 1 {
                // marks left open inside a closed one end with it
                let (s, o, _) = stack.pop().expect("len > pos + 1");
                push_trimmed(&mut out, text, s, i, o, i, stack.len() as u32);
            }
            let (s, o, _) = stack.pop().expect("found");
            push_trimmed(
                &mut out,
                text,
                s,
                i,
                o,
                i + c.len_utf8(),
                stack.len() as u32,
            );
            continue;
        }
        if stack.is_empty() && (c == '：' || c == ':') {
            let before = &text[..i];
            let verb = before.ends_with('曰') || before.ends_with('道');
            let next = iter.peek().map(|&(_, n)| n);
            if verb && next.is_some_and(|n| n != '\n' && closer(n).is_none()) {
                let s = i + c.len_utf8();
                let e = unmarked_end(text, s);
                push_trimmed(&mut out, text, s, e, i, e, 0);
                // continue scanning inside: later marks there are their own
            }
        }
    }
    let end = text.len();
    while let Some((s, o, _)) = stack.pop() {
        push_trimmed(&mut out, text, s, end, o, end, stack.len() as u32);
    }
    out.sort_by_key(|m| (m.start, std::cmp::Reverse(m.end)));
    out
}

/// The end of unmarked speech starting at `s`: the paragraph's end, or the
/// end of the sentence before the next 曰：/道：, or the next opening mark.
fn unmarked_end(text: &str, s: usize) -> usize {
    let para = text[s..].find('\n').map_or(text.len(), |p| s + p);
    let rest = &text[s..para];
    let mut end = para;
    for pat in ["曰：", "道：", "曰:", "道:"] {
        if let Some(p) = rest.find(pat) {
            let before = &rest[..p];
            let cut = before
                .rfind(['。', '！', '？'])
                .map_or(p, |q| q + '。'.len_utf8());
            end = end.min(s + cut);
        }
    }
    if let Some(p) = rest.find(|c| closer(c).is_some()) {
        end = end.min(s + p);
    }
    end
}

fn push_trimmed(
    out: &mut Vec<Marks>,
    text: &str,
    s: usize,
    e: usize,
    open: usize,
    close: usize,
    depth: u32,
) {
    let t = &text[s..e];
    let t2 = t.trim_end();
    let e = s + t2.len();
    if e > s {
        out.push(Marks {
            start: s,
            end: e,
            open,
            close,
            depth,
        });
    }
}

const SENTENCE_END: [char; 5] = ['。', '！', '？', '；', '\n'];
/// Trailing punctuation between a speech verb and the opening mark.
const LEAD_PUNCT: [char; 6] = ['：', ':', '，', ',', ' ', '　'];
/// How far (bytes) back a pronoun or a turn looks.
const LOOK_BACK: usize = 600;

/// Finds and attributes the quotations of a chapter. `spans` are its
/// mentions (sorted by start).
pub fn attribute(text: &str, spans: &[Span], catalog: &Catalog, cues: &Cues) -> Vec<Quote> {
    let marks = find_marks(text);
    let persons: Vec<&Span> = spans
        .iter()
        .filter(|s| s.kind == EntityType::Person)
        .collect();
    // Quotations in narration do not overlap: a binary search tells whether
    // a position is inside one.
    let tops: Vec<(usize, usize)> = marks
        .iter()
        .filter(|m| m.depth == 0)
        .map(|m| (m.start, m.end))
        .collect();
    let inside = |pos: usize| {
        let i = tops.partition_point(|t| t.0 <= pos);
        i > 0 && pos < tops[i - 1].1
    };
    // The last person named before `at` (within LOOK_BACK), outside
    // quotations, other than `not`.
    let before = |at: usize, not: Option<EntityId>| {
        let upto = persons.partition_point(|p| p.start < at);
        persons[..upto]
            .iter()
            .rev()
            .take_while(|p| p.start + LOOK_BACK >= at)
            .find(|p| p.end <= at && Some(p.entity) != not && !inside(p.start))
            .copied()
    };
    let mut quotes: Vec<Quote> = Vec::with_capacity(marks.len());
    // Byte range of the uncatalogued subject of each quotation's lead-in
    // (武生 of 那武生道), for self-introductions.
    let mut descriptors: Vec<Option<(usize, usize)>> = Vec::with_capacity(marks.len());
    // Indices of top-level speech quotations, for turns.
    let mut turns: Vec<usize> = Vec::new();
    // Quotations that may hold the next ones, innermost last.
    let mut open: Vec<usize> = Vec::new();
    // Where the last quotation in narration closed.
    let mut last_close = 0;
    for (qi, m) in marks.iter().enumerate() {
        let holds =
            |j: usize| marks[j].start <= m.open && m.close <= marks[j].end.max(marks[j].close);
        while open.last().is_some_and(|&j| !holds(j)) {
            open.pop();
        }
        // The outer quotation, if any.
        let outer = open.last().copied();
        open.push(qi);
        let floor = match outer {
            Some(j) => marks[j].start,
            None => {
                let floor = if last_close <= m.open { last_close } else { 0 };
                last_close = m.close;
                floor
            }
        };
        let lead_start = text[floor..m.open].rfind(SENTENCE_END).map_or(floor, |p| {
            floor + p + text[floor + p..].chars().next().map_or(1, char::len_utf8)
        });
        let lead = text[lead_start..m.open].trim_end_matches(LEAD_PUNCT);
        let colon = text[lead_start..m.open].trim_end().ends_with(['：', ':']);
        let lead = lead.strip_suffix("一声").unwrap_or(lead);
        let verb = ends_with_any(lead, &cues.say);
        let mut q = Quote {
            start: m.start,
            end: m.end,
            depth: m.depth,
            speech: false,
            speaker: None,
            mention: None,
            addressee: None,
            method: Method::Other,
            confidence: 0.0,
        };
        let first = persons.partition_point(|p| p.start < lead_start);
        let lead_persons: Vec<&Span> = persons[first..]
            .iter()
            .copied()
            .take_while(|p| p.start < m.open)
            .filter(|p| p.end <= m.open)
            .collect();
        // Addressee named in the lead-in.
        let is_addressee = |p: &Span| {
            let from = lead_start.max(p.start.saturating_sub(12));
            let from = (from..=p.start)
                .find(|&b| text.is_char_boundary(b))
                .unwrap_or(p.start);
            ends_with_any(&text[from..p.start], &cues.to).is_some()
        };
        for p in &lead_persons {
            if is_addressee(p) {
                q.addressee = Some(p.entity);
                break;
            }
        }
        // Who the lead-in leaves the speech to, when it names no one.
        let mut open_turn = Turn::None;
        let mut descriptor = None;
        if let Some(v) = verb {
            q.speech = true;
            let verb_start = lead_start + lead.len() - v.len();
            // 她看见X，挂了电话说: a pronoun that opens the clause naming
            // the person is the subject; the person is seen, not speaking.
            let pron = pronoun(&text[lead_start..verb_start], cues);
            let subject = lead_persons
                .iter()
                .find(|p| p.end <= verb_start && !is_addressee(p))
                .filter(|p| {
                    pron.is_none_or(|at| {
                        let at = lead_start + at;
                        at > p.start
                            || text[at..p.start].contains(CLAUSE_END)
                            || !opens_clause(text, clause_start(text, lead_start, at), at, cues)
                    })
                });
            if let Some(p) = subject {
                q.speaker = Some(p.entity);
                q.mention = Some((p.start, p.end));
                let named = text[p.start..p.end] == catalog.get(p.entity).name;
                q.method = if named {
                    Method::Explicit
                } else {
                    Method::Alias
                };
                q.confidence = if named { 0.95 } else { 0.9 };
            } else if let Some(pron) = pron {
                let at = lead_start + pron;
                if let Some(p) = before(at, q.addressee) {
                    q.speaker = Some(p.entity);
                    q.mention = Some((p.start, p.end));
                    q.method = Method::Pronoun;
                    q.confidence = 0.7;
                }
            } else {
                open_turn = bare_lead(
                    &text[lead_start..verb_start],
                    !lead_persons.is_empty(),
                    cues,
                );
                if open_turn == Turn::None && lead_persons.is_empty() {
                    descriptor = descriptor_in(&text[lead_start..verb_start], cues)
                        .map(|(a, b)| (lead_start + a, lead_start + b));
                }
            }
        } else if let Some((p, method)) = after_quote(text, m, &persons, catalog, cues) {
            q.speech = true;
            q.speaker = Some(p.entity);
            q.mention = Some((p.start, p.end));
            q.method = method;
            q.confidence = if method == Method::Explicit {
                0.95
            } else {
                0.85
            };
        } else if let Some((p, method)) = colon
            .then(|| colon_subject(text, lead_start, lead, &lead_persons, cues))
            .flatten()
            .and_then(|subject| match subject {
                Subject::Named(p) => {
                    let named = text[p.start..p.end] == catalog.get(p.entity).name;
                    let method = if named {
                        Method::Explicit
                    } else {
                        Method::Alias
                    };
                    (!is_addressee(p)).then_some((p, method))
                }
                Subject::Pronoun(at) => before(at, q.addressee).map(|p| (p, Method::Pronoun)),
            })
        {
            // X摇了摇头：“…”: no speech verb, but a colon after a clause
            // whose subject is a person.
            q.speech = true;
            q.speaker = Some(p.entity);
            q.mention = Some((p.start, p.end));
            q.method = method;
            q.confidence = if method == Method::Pronoun { 0.6 } else { 0.8 };
        } else {
            let quote_len = text[m.start..m.end].chars().count();
            let term = !colon
                && !lead.is_empty()
                && quote_len <= 8
                && !text[m.start..m.end].contains(['。', '！', '？', '，']);
            q.speech = !term && (lead.is_empty() || colon || quote_len > 8);
            if q.speech && lead.is_empty() {
                open_turn = Turn::Exchange;
            }
        }
        // The one spoken to, named after the quotation (X听了).
        if q.addressee.is_none() && q.speech {
            q.addressee = heard_by(text, m.close, &persons, cues).filter(|&a| Some(a) != q.speaker);
        }
        if q.addressee == q.speaker {
            q.addressee = None;
        }
        if let Some(j) = outer {
            // A quotation inside a spoken one, with no speaker of its own.
            let o = &quotes[j];
            if q.speaker.is_none() && o.speech {
                q.speech = true;
                q.speaker = o.speaker;
                q.mention = o.mention;
                q.method = o.method;
                q.confidence = o.confidence * 0.9;
                q.addressee = o.addressee;
            }
        } else if q.speech {
            if q.speaker.is_none() {
                let last = turns
                    .last()
                    .map(|&j| &quotes[j])
                    .filter(|l| l.end + LOOK_BACK >= m.open);
                match open_turn {
                    Turn::Exchange => {
                        if let Some(s) = turn(&quotes, &turns, m) {
                            q.speaker = Some(s);
                            q.method = Method::Alternation;
                            q.confidence = 0.6;
                        }
                    }
                    Turn::Again => {
                        if let Some(l) = last.filter(|l| l.speaker.is_some()) {
                            q.speaker = l.speaker;
                            q.method = Method::Alternation;
                            q.confidence = 0.7;
                        }
                    }
                    Turn::Topic => {
                        // No subject at all: the one the narration is about.
                        if let Some(p) = before(m.open, None) {
                            q.speaker = Some(p.entity);
                            q.mention = Some((p.start, p.end));
                            q.method = Method::Other;
                            q.confidence = 0.5;
                        }
                    }
                    Turn::None => {}
                }
            }
            turns.push(qi);
        }
        quotes.push(q);
        descriptors.push(descriptor);
    }
    introductions(text, &mut quotes, &descriptors, catalog, cues);
    quotes
}

/// The subject of a lead-in that names no catalogued person (那武生道 →
/// 武生): its last clause without adverbs and demonstratives, two to four
/// Han characters.
fn descriptor_in(lead: &str, cues: &Cues) -> Option<(usize, usize)> {
    let clause_start = lead.rfind(['，', ',']).map_or(0, |p| {
        p + lead[p..].chars().next().map_or(0, char::len_utf8)
    });
    let mut start = clause_start;
    while let Some(a) = starts_with_any(&lead[start..], &cues.adv) {
        start += a.len();
    }
    let demonstratives = &crate::entity::CharClasses::builtin().demonstrative;
    while let Some(c) = lead[start..]
        .chars()
        .next()
        .filter(|c| demonstratives.contains(c))
    {
        start += c.len_utf8();
    }
    let word = &lead[start..];
    let n = word.chars().count();
    ((2..=4).contains(&n) && word.chars().all(|c| ('\u{4e00}'..='\u{9fff}').contains(&c)))
        .then_some((start, lead.len()))
}

/// A speaker who introduces himself (小弟…姓钟名慕白) is that person for the
/// chapter's quotations given to the same speaker, when the catalog knows
/// the person he names: a catalogued pseudo-person (武生, as the catalog
/// may take it; the quotations addressed to it too), or a description of an
/// uncatalogued one in the lead-in (那武生道: its quotations get the
/// description as mention). Method alias.
fn introductions(
    text: &str,
    quotes: &mut [Quote],
    descriptors: &[Option<(usize, usize)>],
    catalog: &Catalog,
    cues: &Cues,
) {
    /// Who introduces himself.
    #[derive(PartialEq)]
    enum Speaker<'t> {
        Entity(EntityId),
        Described(&'t str),
    }
    let who = |q: &Quote, d: &Option<(usize, usize)>| match (q.speaker, d) {
        (Some(id), _) => Some(Speaker::Entity(id)),
        (None, Some((a, b))) => Some(Speaker::Described(&text[*a..*b])),
        (None, None) => None,
    };
    let mut named: Vec<(Speaker, EntityId)> = Vec::new();
    for (q, d) in quotes.iter().zip(descriptors) {
        let Some(speaker) = who(q, d).filter(|_| q.speech) else {
            continue;
        };
        let Some(person) =
            introduced(&text[q.start..q.end], cues).and_then(|n| person_named(catalog, &n))
        else {
            continue;
        };
        if speaker != Speaker::Entity(person) && !named.iter().any(|(w, _)| *w == speaker) {
            named.push((speaker, person));
        }
    }
    if named.is_empty() {
        return;
    }
    let person_of = |w: &Speaker| named.iter().find(|(n, _)| n == w).map(|n| n.1);
    for (q, d) in quotes.iter_mut().zip(descriptors) {
        if let Some(person) = who(q, d).and_then(|w| person_of(&w)) {
            if q.speaker.is_none() {
                q.mention = *d;
                q.confidence = 0.8;
            }
            q.speaker = Some(person);
            q.method = Method::Alias;
        }
        if let Some(person) = q.addressee.and_then(|a| person_of(&Speaker::Entity(a))) {
            q.addressee = Some(person);
        }
    }
}

/// The person of the catalog with this name or alias.
fn person_named(catalog: &Catalog, name: &str) -> Option<EntityId> {
    catalog
        .entities()
        .iter()
        .position(|e| {
            e.kind == EntityType::Person && (e.name == name || e.aliases.iter().any(|a| a == name))
        })
        .map(|i| i as EntityId)
}

/// The name a speaker gives himself in a quotation: surname + given name of
/// 姓X名Y (X one or two characters, Y up to three), after a word of his for
/// himself.
fn introduced(quote: &str, cues: &Cues) -> Option<String> {
    let at = quote.find('姓')?;
    // The last word of the speaker's for himself, and nothing between it
    // and 姓 that makes the name another's (我家主人姓…, 我的朋友姓…).
    let from = cues
        .self_ref
        .iter()
        .filter_map(|w| quote[..at].rfind(w).map(|i| i + w.len()))
        .max()?;
    if quote[from..at].contains(['家', '的', '之', '他', '她']) {
        return None;
    }
    let rest: Vec<char> = quote[at + '姓'.len_utf8()..].chars().take(8).collect();
    let ming = rest.iter().position(|&c| c == '名')?;
    if !(1..=2).contains(&ming) {
        return None;
    }
    let given: String = rest[ming + 1..]
        .iter()
        .take_while(|c| !c.is_ascii_punctuation() && !"，。！？；、：”’」字号乃".contains(**c))
        .take(3)
        .collect();
    if given.is_empty() {
        return None;
    }
    let surname: String = rest[..ming].iter().collect();
    Some(surname + &given)
}

/// What a lead-in without a named speaker leaves open.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Turn {
    /// Someone not catalogued speaks (那武生道, 妇人道): no speaker.
    None,
    /// Nothing but the speech: the next turn of an exchange.
    Exchange,
    /// 又道: the last speaker goes on.
    Again,
    /// Adverbs and a verb, no subject (暗暗笑道): the one the narration is about.
    Topic,
}

/// The subject of a lead-in that ends with a colon but no speech verb.
enum Subject<'s> {
    Named(&'s Span),
    /// A pronoun at this byte offset of the chapter.
    Pronoun(usize),
}

/// A colon lead-in's subject opens one of its last this many clauses.
const COLON_CLAUSES: usize = 2;

/// What ends a clause inside a lead-in.
const CLAUSE_END: [char; 2] = ['，', ','];

/// X摇了摇头：, 他点了点头：: the person (or pronoun) that opens one of the
/// last `COLON_CLAUSES` clauses of a lead-in ending with a colon, perhaps
/// after `opener` words, the last such clause (X看着Y，摇了摇头： is X's;
/// 甲抬头看见，乙忙令： is 乙's). Not when the lead-in reads writing (上面写着：),
/// which no one speaks, or a saying (正所谓：).
fn colon_subject<'s>(
    text: &str,
    lead_start: usize,
    lead: &str,
    lead_persons: &[&'s Span],
    cues: &Cues,
) -> Option<Subject<'s>> {
    if lead.contains(['写', '书', '念']) || lead.contains("所谓") {
        return None;
    }
    let mut clauses = vec![0];
    clauses.extend(lead.match_indices(CLAUSE_END).map(|(i, c)| i + c.len()));
    for &c in clauses.iter().rev().take(COLON_CLAUSES) {
        let at = lead_start + c;
        if let Some(p) = lead_persons
            .iter()
            .find(|p| p.start >= at && opens_clause(text, at, p.start, cues))
        {
            return Some(Subject::Named(p));
        }
        if let Some(pron) =
            pronoun(&lead[c..], cues).filter(|&o| opens_clause(text, at, at + o, cues))
        {
            return Some(Subject::Pronoun(at + pron));
        }
    }
    None
}

/// Whether `at` opens the clause that starts at `clause_start`, perhaps
/// after `opener` words (只见X, 这时X, 却说X).
fn opens_clause(text: &str, clause_start: usize, at: usize, cues: &Cues) -> bool {
    let mut gap = &text[clause_start..at];
    while let Some(o) = starts_with_any(gap, &cues.opener) {
        gap = &gap[o.len()..];
    }
    gap.is_empty()
}

/// Where the clause holding `at` starts (not before `lead_start`).
fn clause_start(text: &str, lead_start: usize, at: usize) -> usize {
    text[lead_start..at]
        .rfind(CLAUSE_END)
        .map_or(lead_start, |p| {
            let comma = text[lead_start + p..]
                .chars()
                .next()
                .map_or(1, char::len_utf8);
            lead_start + p + comma
        })
}

/// Reads a lead-in (up to its speech verb) that names no speaker.
fn bare_lead(lead: &str, names_someone: bool, cues: &Cues) -> Turn {
    let (earlier, clause) = match lead.rfind(['，', ',']) {
        Some(p) => (&lead[..p], lead[p..].trim_start_matches(['，', ','])),
        None => ("", lead),
    };
    let mut rest = clause;
    while let Some(a) = starts_with_any(rest, &cues.adv) {
        rest = &rest[a.len()..];
    }
    // 又对那老者道: the rest names the one spoken to, not a speaker.
    if !rest.is_empty() && starts_with_any(rest, &cues.to).is_none() {
        return Turn::None;
    }
    if cues.again.iter().any(|a| clause.contains(a)) {
        return Turn::Again;
    }
    if clause.is_empty() && earlier.is_empty() {
        return Turn::Exchange;
    }
    if earlier.is_empty() && !names_someone {
        Turn::Topic
    } else {
        Turn::None
    }
}

/// Byte offset in `lead` of a pronoun subject (not after a `to` cue).
fn pronoun(lead: &str, cues: &Cues) -> Option<usize> {
    for (i, _) in lead.char_indices() {
        if let Some(p) = starts_with_any(&lead[i..], &cues.pron) {
            if ends_with_any(&lead[..i], &cues.to).is_none()
                && !lead[i + p.len()..].starts_with([
                    '们', '的', '妻', '子', '父', '母', '家', '娘', '兄', '弟', '姐', '妹', '儿',
                    '女',
                ])
            {
                return Some(i);
            }
        }
    }
    None
}

/// “…”X道 / “…”X笑道: a person right after the closing mark, then a speech
/// verb before the clause ends.
fn after_quote<'s>(
    text: &str,
    m: &Marks,
    persons: &[&'s Span],
    catalog: &Catalog,
    cues: &Cues,
) -> Option<(&'s Span, Method)> {
    let rest = &text[m.close..];
    let clause_len = rest
        .find(['，', '。', '！', '？', '：', '\n', '“', '「', '『'])
        .unwrap_or(rest.len());
    if clause_len > 30 {
        return None;
    }
    let clause = &rest[..clause_len];
    ends_with_any(clause, &cues.say)?;
    let p = persons
        .iter()
        .copied()
        .find(|p| p.start >= m.close && p.start <= m.close + 6)?;
    if p.end > m.close + clause_len {
        return None;
    }
    let named = text[p.start..p.end] == catalog.get(p.entity).name;
    Some((
        p,
        if named {
            Method::Explicit
        } else {
            Method::Alias
        },
    ))
}

/// X听了 / X闻言 right after the closing mark.
fn heard_by(text: &str, close: usize, persons: &[&Span], cues: &Cues) -> Option<EntityId> {
    let p = persons
        .iter()
        .find(|p| p.start >= close && p.start <= close + 6)?;
    let rest = &text[p.end..];
    rest.char_indices()
        .take(3)
        .any(|(i, _)| starts_with_any(&rest[i..], &cues.hear).is_some())
        .then_some(p.entity)
}

/// The speaker of an unattributed turn: the one last spoken to, or the
/// speaker before last in a two-person exchange.
fn turn(quotes: &[Quote], turns: &[usize], m: &Marks) -> Option<EntityId> {
    let last = &quotes[*turns.last()?];
    if last.end + LOOK_BACK < m.open {
        return None;
    }
    if let Some(a) = last.addressee {
        if Some(a) != last.speaker {
            return Some(a);
        }
    }
    let before = &quotes[*turns.get(turns.len().checked_sub(2)?)?];
    match (last.speaker, before.speaker) {
        (Some(a), Some(b)) if a != b && before.end + 2 * LOOK_BACK >= m.open => Some(b),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::entity::{Catalog, Entity};

    fn person(name: &str, aliases: &[&str]) -> Entity {
        Entity {
            name: name.to_string(),
            kind: EntityType::Person,
            aliases: aliases.iter().map(|s| s.to_string()).collect(),
            evidence: vec![],
            confidence: 1.0,
        }
    }

    fn catalog() -> Catalog {
        Catalog::new(vec![
            person("钟铁衣", &["钟爷"]),
            person("苏青禾", &[]),
            person("石敢当", &[]),
        ])
    }

    /// (speaker, method, addressee) of each quotation of `text`.
    fn run(text: &str) -> Vec<(String, String, &'static str, String)> {
        let catalog = catalog();
        let nested = Default::default();
        let spans = super::super::spans(text, &catalog, &nested, &Cues::builtin());
        let quotes = attribute(text, &spans, &catalog, &Cues::builtin());
        let name = |id: Option<EntityId>| id.map_or(String::new(), |i| catalog.get(i).name.clone());
        quotes
            .iter()
            .map(|q| {
                (
                    text[q.start..q.end].to_string(),
                    name(q.speaker),
                    q.method.as_str(),
                    name(q.addressee),
                )
            })
            .collect()
    }

    /// (name, text, [(quote, speaker, method, addressee)])
    type Case = (
        &'static str,
        &'static str,
        &'static [(&'static str, &'static str, &'static str, &'static str)],
    );

    #[test]
    fn speech_patterns() {
        // (name, text, [(quote, speaker, method, addressee)])
        let cases: &[Case] = &[
            (
                "X道",
                "钟铁衣道：“走吧。”",
                &[("走吧。", "钟铁衣", "explicit", "")],
            ),
            (
                "X笑道",
                "苏青禾笑道：“好。”",
                &[("好。", "苏青禾", "explicit", "")],
            ),
            (
                "X问",
                "石敢当问：“谁？”",
                &[("谁？", "石敢当", "explicit", "")],
            ),
            (
                "X说道",
                "苏青禾说道：“是。”",
                &[("是。", "苏青禾", "explicit", "")],
            ),
            (
                "X喝道",
                "钟铁衣喝道：“站住！”",
                &[("站住！", "钟铁衣", "explicit", "")],
            ),
            (
                "X说",
                "石敢当说：“来了。”",
                &[("来了。", "石敢当", "explicit", "")],
            ),
            (
                "X曰 with 「」",
                "钟铁衣曰：「善。」",
                &[("善。", "钟铁衣", "explicit", "")],
            ),
            (
                "adverbial before the verb",
                "钟铁衣放下茶杯，连忙答礼道：“请了。”",
                &[("请了。", "钟铁衣", "explicit", "")],
            ),
            (
                "X大怒道",
                "石敢当大怒道：“拿下！”",
                &[("拿下！", "石敢当", "explicit", "")],
            ),
            (
                "问X道: X is the addressee",
                "苏青禾便问钟铁衣道：“贵姓？”",
                &[("贵姓？", "苏青禾", "explicit", "钟铁衣")],
            ),
            (
                "对X说",
                "石敢当对苏青禾说：“快走。”",
                &[("快走。", "石敢当", "explicit", "苏青禾")],
            ),
            (
                "alias",
                "钟爷道：“罢了。”",
                &[("罢了。", "钟铁衣", "alias", "")],
            ),
            (
                "pronoun",
                "石敢当走进门来。他道：“我饿了。”",
                &[("我饿了。", "石敢当", "pronoun", "")],
            ),
            (
                "a pronoun opening the clause that names a person: the person is seen",
                "苏青禾正在打电话。她看见石敢当，挂了电话说：“有人找你。”",
                &[("有人找你。", "苏青禾", "pronoun", "")],
            ),
            (
                "a colon after a clause a person opens, no speech verb",
                "石敢当摇了摇头：“不卖。”",
                &[("不卖。", "石敢当", "explicit", "")],
            ),
            (
                "a colon lead-in: an opener word before the subject",
                "只见钟铁衣点了点头：“好。”",
                &[("好。", "钟铁衣", "explicit", "")],
            ),
            (
                "a colon lead-in: the clause with no subject of its own is the earlier one's",
                "苏青禾看着石敢当，摇了摇头：“不必。”",
                &[("不必。", "苏青禾", "explicit", "石敢当")],
            ),
            (
                "a colon lead-in: the last clause a person opens",
                "石敢当抬头看见，及待躲时，钟铁衣忙令左右：“拿下。”",
                &[("拿下。", "钟铁衣", "explicit", "")],
            ),
            (
                "a colon lead-in: a pronoun subject",
                "钟铁衣走进门来。他点了点头：“来了。”",
                &[("来了。", "钟铁衣", "pronoun", "")],
            ),
            (
                "a colon lead-in: a person inside the clause is no subject",
                "众人迎着钟铁衣，一齐拜倒：“恭喜。”",
                &[("恭喜。", "", "other", "")],
            ),
            (
                "a colon lead-in that reads writing, or a saying: no one speaks",
                "钟铁衣拿起信来，上面写着：“速归。”苏青禾叹了口气，正所谓：“人心难测。”",
                &[("速归。", "", "other", ""), ("人心难测。", "", "other", "")],
            ),
            (
                "speaker after the quotation",
                "“天晚了。”苏青禾道。",
                &[("天晚了。", "苏青禾", "explicit", "")],
            ),
            (
                "X听了: the addressee follows",
                "钟铁衣道：“明日再来。”苏青禾听了，点头。",
                &[("明日再来。", "钟铁衣", "explicit", "苏青禾")],
            ),
            (
                "turns: the reply is the addressee's",
                "钟铁衣问苏青禾道：“去否？”“不去。”",
                &[
                    ("去否？", "钟铁衣", "explicit", "苏青禾"),
                    ("不去。", "苏青禾", "alternation", ""),
                ],
            ),
            (
                "turns: speaker before last",
                "钟铁衣道：“甲。”苏青禾道：“乙。”“丙。”",
                &[
                    ("甲。", "钟铁衣", "explicit", ""),
                    ("乙。", "苏青禾", "explicit", ""),
                    ("丙。", "钟铁衣", "alternation", ""),
                ],
            ),
            (
                "又道: the last speaker goes on",
                "苏青禾道：“甲。”略停一停，又道：“乙。”",
                &[
                    ("甲。", "苏青禾", "explicit", ""),
                    ("乙。", "苏青禾", "alternation", ""),
                ],
            ),
            (
                "no subject: the one the narration is about",
                "石敢当推门进来。暗暗笑道：“好。”",
                &[("好。", "石敢当", "other", "")],
            ),
            (
                "an uncatalogued speaker is left empty",
                "钟铁衣道：“甲。”那小童道：“乙。”",
                &[
                    ("甲。", "钟铁衣", "explicit", ""),
                    ("乙。", "", "other", ""),
                ],
            ),
            (
                "nested quotation is the outer speaker's",
                "苏青禾道：“莫非人称“铁臂”的钟爷么？”",
                &[
                    ("莫非人称“铁臂”的钟爷么？", "苏青禾", "explicit", ""),
                    ("铁臂", "苏青禾", "explicit", ""),
                ],
            ),
            (
                "classical speech after 曰： without marks",
                "石敢当曰：吾不往也。\n",
                &[("吾不往也。", "石敢当", "explicit", "")],
            ),
        ];
        for (name, text, expected) in cases {
            let got = run(text);
            let want: Vec<(String, String, &str, String)> = expected
                .iter()
                .map(|(q, s, m, a)| (q.to_string(), s.to_string(), *m, a.to_string()))
                .collect();
            assert_eq!(got, want, "{name}: {text}");
        }
    }

    #[test]
    fn a_term_quoted_in_narration_has_no_speaker() {
        let cases = [
            "众人都称他为“铁臂”，无人不知。",
            "钟铁衣写了“忠义”二字。",
            "那匾上是“聚贤堂”三个大字。",
        ];
        for text in cases {
            let got = run(text);
            assert_eq!(got.len(), 1, "{text}");
            assert_eq!(got[0].1, "", "{text}: {got:?}");
            assert_eq!(got[0].2, "other", "{text}: {got:?}");
        }
    }

    #[test]
    fn a_speaker_who_introduces_himself_is_that_person_in_the_chapter() {
        let catalog = Catalog::new(vec![
            person("少年", &[]),
            person("钟铁衣", &["铁衣"]),
            person("苏青禾", &[]),
        ]);
        let speakers = |text: &str| -> Vec<(String, &'static str)> {
            let cues = Cues::builtin();
            let spans = super::super::spans(text, &catalog, &Default::default(), &cues);
            attribute(text, &spans, &catalog, &cues)
                .iter()
                .map(|q| {
                    let name = q
                        .speaker
                        .map_or(String::new(), |i| catalog.get(i).name.clone());
                    (name, q.method.as_str())
                })
                .collect()
        };
        let s = |n: &str, m: &'static str| (n.to_string(), m);
        assert_eq!(
            speakers("少年道：“小弟云州人氏，姓钟名铁衣。”苏青禾道：“久仰。”少年道：“不敢。”"),
            vec![
                s("钟铁衣", "alias"),
                s("苏青禾", "explicit"),
                s("钟铁衣", "alias")
            ]
        );
        // Another's name: the speaker stays who he was.
        assert_eq!(
            speakers("少年道：“我家主人姓钟名铁衣。”"),
            vec![s("少年", "explicit")]
        );
        // No word of the speaker's for himself: no introduction.
        assert_eq!(
            speakers("少年道：“那人姓钟名铁衣。”"),
            vec![s("少年", "explicit")]
        );
    }

    #[test]
    fn a_description_the_catalog_does_not_know_is_the_person_who_introduces_himself() {
        let catalog = catalog();
        let cues = Cues::builtin();
        let text = "那少年道：“小弟云州人氏，姓钟名铁衣。”苏青禾道：“久仰。”那少年笑道：“不敢。”那老者道：“请坐。”";
        let spans = super::super::spans(text, &catalog, &Default::default(), &cues);
        let got: Vec<(String, &'static str, String)> = attribute(text, &spans, &catalog, &cues)
            .iter()
            .map(|q| {
                let name = q
                    .speaker
                    .map_or(String::new(), |i| catalog.get(i).name.clone());
                let mention = q
                    .mention
                    .map_or(String::new(), |(a, b)| text[a..b].to_string());
                (name, q.method.as_str(), mention)
            })
            .collect();
        let row = |n: &str, m: &'static str, w: &str| (n.to_string(), m, w.to_string());
        assert_eq!(
            got,
            vec![
                row("钟铁衣", "alias", "少年"),
                row("苏青禾", "explicit", "苏青禾"),
                row("钟铁衣", "alias", "少年"),
                // Another description: still no one.
                row("", "other", ""),
            ]
        );
    }

    #[test]
    fn marks_nest_and_unclosed_marks_end_with_the_paragraph() {
        let text = "甲道：“一“二”三\n乙道：『四』";
        let got: Vec<&str> = find_marks(text)
            .iter()
            .map(|m| &text[m.start..m.end])
            .collect();
        assert_eq!(got, ["一“二”三", "二", "四"]);
    }
}
