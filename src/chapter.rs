//! Chapter: one book's text → chapters → paragraphs → sentences. Normalizes
//! line endings, rejoins hard-wrapped lines, and splits a whole-novel file at
//! its chapter headings (第N章/回/节/卷/集/部, 楔子, 序章, 尾声…).

use crate::error::{Error, Result};
use regex::Regex;
use std::ops::Range;

/// The default heading pattern: a short line that is a chapter number with an
/// optional title, or one of the named front/back-matter headings.
const DEFAULT_HEADING: &str = r"^(?:第[0-9０-９一二三四五六七八九十百千万萬零〇○Ｏ两兩]+[章回节節卷集部篇](?:$|[\s　:：、.．·—\-]|[^\s　合])|(?:楔子|序章|序言|序幕|引子|尾声|尾聲|番外|后记|後記|终章|終章)(?:$|[\s　:：、.．·—\-]|[^\s　]))";

/// Longest line, in characters, that can be a heading (longer lines are prose).
const MAX_HEADING_CHARS: usize = 60;

/// Finds chapter heading lines.
#[derive(Debug, Clone)]
pub struct HeadingMatcher {
    regex: Regex,
    custom: bool,
}

impl Default for HeadingMatcher {
    fn default() -> Self {
        HeadingMatcher {
            regex: Regex::new(DEFAULT_HEADING).expect("default heading pattern compiles"),
            custom: false,
        }
    }
}

impl HeadingMatcher {
    /// A user's `--chapter-pattern`, matched against each trimmed line.
    pub fn custom(pattern: &str) -> Result<Self> {
        let regex = Regex::new(pattern).map_err(|e| {
            Error::ChapterPattern(
                e.to_string()
                    .split_whitespace()
                    .collect::<Vec<_>>()
                    .join(" "),
            )
        })?;
        // A pattern that matches an empty line matches every line, so no
        // line would be left as text.
        if regex.is_match("") {
            return Err(Error::ChapterPattern(format!(
                "'{pattern}' matches an empty line, so every line would be a heading; give a pattern that only heading lines match, such as '^第.+章'"
            )));
        }
        Ok(HeadingMatcher {
            regex,
            custom: true,
        })
    }

    /// Whether a (trimmed) line is a chapter heading.
    pub fn is_heading(&self, line: &str) -> bool {
        if self.custom {
            return self.regex.is_match(line);
        }
        let chars = line.chars().count();
        chars <= MAX_HEADING_CHARS
            && !line.contains(['。', '！', '？', '」', '”'])
            && self.regex.is_match(line)
    }
}

/// A chapter as split from a file: its title and its text (paragraphs joined
/// by `\n`, each trimmed of indentation).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RawChapter {
    pub title: String,
    pub text: String,
}

/// Splits the decoded text of one file into chapters. `fallback_title` (the
/// file name) titles a file that has no headings. Text before the first
/// heading becomes a preface chapter only if it is not blank, and a heading
/// with no text under it (a volume title before its first chapter) is dropped.
pub fn split_chapters(
    text: &str,
    headings: &HeadingMatcher,
    fallback_title: &str,
) -> Vec<RawChapter> {
    let text = normalize_newlines(text);
    let lines = rejoin_wrapped_lines(&text);
    let mut chapters = Vec::new();
    let mut title: Option<String> = None;
    let mut body: Vec<&str> = Vec::new();
    let flush = |title: Option<String>, body: &mut Vec<&str>, chapters: &mut Vec<RawChapter>| {
        let text = body.join("\n");
        body.clear();
        if text.is_empty() {
            return;
        }
        let title = title.unwrap_or_else(|| {
            if chapters.is_empty() {
                "前言".to_string()
            } else {
                fallback_title.to_string()
            }
        });
        chapters.push(RawChapter { title, text });
    };
    let mut saw_heading = false;
    for line in &lines {
        let trimmed = trim_line(line);
        if headings.is_heading(trimmed) {
            flush(title.take(), &mut body, &mut chapters);
            title = Some(collapse_spaces(trimmed));
            saw_heading = true;
        } else if !trimmed.is_empty() {
            body.push(trimmed);
        }
    }
    flush(title.take(), &mut body, &mut chapters);
    if !saw_heading {
        for c in &mut chapters {
            c.title = fallback_title.to_string();
        }
    }
    chapters
}

fn trim_line(line: &str) -> &str {
    line.trim_matches(|c: char| c.is_whitespace() || c == '\u{3000}' || c == '\u{FEFF}')
}

fn collapse_spaces(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut space = false;
    for c in s.chars() {
        if c.is_whitespace() || c == '\u{3000}' {
            space = true;
        } else {
            if space && !out.is_empty() {
                out.push(' ');
            }
            space = false;
            out.push(c);
        }
    }
    out
}

/// CRLF and lone CR become LF.
pub fn normalize_newlines(text: &str) -> String {
    if !text.contains('\r') {
        return text.to_string();
    }
    text.replace("\r\n", "\n").replace('\r', "\n")
}

/// Rejoins paragraphs whose lines were broken at a fixed width (Project
/// Gutenberg's layout). The width is the most common line length; it counts
/// as hard-wrapped only when most long lines share it. A line that filled the
/// width is joined with the next unless the next is blank or indented.
pub fn rejoin_wrapped_lines(text: &str) -> Vec<String> {
    let lines: Vec<&str> = text.split('\n').collect();
    let width = match wrap_width(&lines) {
        Some(w) => w,
        None => return lines.into_iter().map(str::to_string).collect(),
    };
    let mut out: Vec<String> = Vec::with_capacity(lines.len());
    let mut joinable = false;
    for line in lines {
        let content = line.trim_end();
        let indented = line.starts_with([' ', '\t', '\u{3000}']);
        if joinable && !content.is_empty() && !indented {
            out.last_mut()
                .expect("joinable implies a previous line")
                .push_str(content);
        } else {
            out.push(content.to_string());
        }
        joinable = display_width(content) + 2 >= width;
    }
    out
}

fn wrap_width(lines: &[&str]) -> Option<usize> {
    let mut counts = std::collections::HashMap::new();
    let mut long_lines = 0usize;
    for line in lines {
        let n = display_width(line.trim_end());
        if n >= 40 {
            long_lines += 1;
            *counts.entry(n).or_insert(0usize) += 1;
        }
    }
    let (&width, &count) = counts.iter().max_by_key(|(w, c)| (**c, **w))?;
    let near = (width - 2..=width + 2)
        .map(|w| counts.get(&w).copied().unwrap_or(0))
        .sum::<usize>();
    (count >= 10 && near * 2 >= long_lines).then_some(width)
}

/// Columns a line takes in a fixed-width layout: CJK and full-width
/// characters take two, others one (how Project Gutenberg wrapped its
/// texts), by the unicode-width crate, ambiguous characters (“”…) counted
/// as wide as a CJK terminal counts them.
fn display_width(s: &str) -> usize {
    unicode_width::UnicodeWidthStr::width_cjk(s)
}

/// Byte ranges of the paragraphs (lines) of a chapter text.
pub fn paragraphs(text: &str) -> Vec<Range<usize>> {
    let mut out = Vec::new();
    let mut start = 0;
    for (i, b) in text.bytes().enumerate() {
        if b == b'\n' {
            if i > start {
                out.push(start..i);
            }
            start = i + 1;
        }
    }
    if text.len() > start {
        out.push(start..text.len());
    }
    out
}

/// Longest context, in characters, that `context_around` gives a mention.
pub const MAX_CONTEXT_CHARS: usize = 200;

/// The context of a mention at `start..end` inside `sentence` (byte ranges
/// of `text`): the whole sentence if it has at most `MAX_CONTEXT_CHARS`
/// characters, else at most `MAX_CONTEXT_CHARS / 2` characters on each
/// side of the mention, inside the sentence. A line without punctuation is
/// one sentence however long it is; the cap keeps every mention's context
/// (and the cost of finding it) bounded. `sentence_chars` is the
/// sentence's length in characters, counted once per sentence by the caller.
pub fn context_around(
    text: &str,
    sentence: Range<usize>,
    sentence_chars: usize,
    start: usize,
    end: usize,
) -> Range<usize> {
    if sentence_chars <= MAX_CONTEXT_CHARS {
        return sentence;
    }
    let side = MAX_CONTEXT_CHARS / 2;
    let start = start.clamp(sentence.start, sentence.end);
    let end = end.clamp(start, sentence.end);
    let from = text[sentence.start..start]
        .char_indices()
        .rev()
        .nth(side - 1)
        .map_or(sentence.start, |(i, _)| sentence.start + i);
    let to = text[end..sentence.end]
        .char_indices()
        .nth(side)
        .map_or(sentence.end, |(i, _)| end + i);
    from..to
}

/// Byte ranges of the sentences of a chapter text: a sentence ends at 。！？；…
/// (with any closing quotes after it) or at a line break.
pub fn sentences(text: &str) -> Vec<Range<usize>> {
    let mut out = Vec::new();
    let mut start = 0;
    let mut ended = false;
    for (i, c) in text.char_indices() {
        if c == '\n' {
            if i > start {
                out.push(start..i);
            }
            start = i + 1;
            ended = false;
            continue;
        }
        let closing = matches!(c, '”' | '」' | '』' | '’' | '"' | '）' | ')');
        if ended && !closing {
            if i > start {
                out.push(start..i);
            }
            start = i;
            ended = false;
        }
        if matches!(c, '。' | '！' | '？' | '!' | '?' | '；' | '…') {
            ended = true;
        }
    }
    if text.len() > start {
        out.push(start..text.len());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn context_is_the_sentence_or_a_window_around_the_mention() {
        let short = "耶律挞烈率军至锦州。";
        assert_eq!(
            context_around(short, 0..short.len(), 10, 0, 12),
            0..short.len()
        );
        let long = format!("{}耶律挞烈{}", "甲".repeat(300), "乙".repeat(300));
        let at = 300 * 3;
        let r = context_around(&long, 0..long.len(), 604, at, at + 12);
        assert_eq!(
            &long[r.clone()],
            format!("{}耶律挞烈{}", "甲".repeat(100), "乙".repeat(100))
        );
        // At the edges of the sentence the window is cut there.
        let r = context_around(&long, 0..long.len(), 604, 0, 3);
        assert_eq!(r, 0..101 * 3);
    }

    fn titles(text: &str) -> Vec<String> {
        split_chapters(text, &HeadingMatcher::default(), "file")
            .into_iter()
            .map(|c| c.title)
            .collect()
    }

    #[test]
    fn heading_forms() {
        let m = HeadingMatcher::default();
        for yes in [
            "第一章",
            "第1章 风起",
            "第１２章：夜袭",
            "第一二○回 宋公明神聚蓼儿洼",
            "第七回 林教頭刺配滄州道",
            "第十卷",
            "楔子　張天師祈禳瘟疫",
            "序章",
            "尾聲",
            "番外一 旧事",
            "後記",
            "第三百零二章伏兵",
        ] {
            assert!(m.is_heading(yes), "{yes}");
        }
        for no in [
            "第三回合，两人不分胜负。",
            "他说：“第一章写得好。”",
            "第一次见面",
        ] {
            assert!(!m.is_heading(no), "{no}");
        }
    }

    #[test]
    fn preface_only_when_not_blank() {
        assert_eq!(
            titles("\n\n第一章 起\n正文。\n第二章 承\n又一段。"),
            ["第一章 起", "第二章 承"]
        );
        assert_eq!(titles("前面的话。\n第一章\n正文。"), ["前言", "第一章"]);
    }

    #[test]
    fn volume_heading_without_text_is_dropped() {
        assert_eq!(titles("第一卷 北伐\n第一章 出兵\n正文。"), ["第一章 出兵"]);
    }

    #[test]
    fn file_without_headings_is_one_chapter() {
        let c = split_chapters(
            "一段。\r\n二段。\r三段。",
            &HeadingMatcher::default(),
            "001",
        );
        assert_eq!(c.len(), 1);
        assert_eq!(c[0].title, "001");
        assert_eq!(c[0].text, "一段。\n二段。\n三段。");
    }

    #[test]
    fn hard_wrapped_lines_are_rejoined() {
        // Project Gutenberg's layout: 4-space indent + 23 CJK = 50 columns = 25 CJK.
        let first = "一二三四五六七八九十一二三四五六七八九十一二三";
        let line = "一二三四五六七八九十一二三四五六七八九十一二三四五";
        let mut text = String::new();
        for _ in 0..12 {
            text.push_str(&format!("    {first}\n{line}\n短句。\n\n"));
        }
        let lines = rejoin_wrapped_lines(&text);
        let joined: Vec<&String> = lines.iter().filter(|l| !l.is_empty()).collect();
        assert_eq!(joined.len(), 12);
        assert_eq!(joined[0].trim(), format!("{first}{line}短句。"));
        // Ordinary text with one paragraph per line is left alone.
        let plain = "第一段很长很长很长很长很长很长很长很长很长很长很长。\n第二段。\n";
        assert_eq!(rejoin_wrapped_lines(plain).len(), 3);
    }

    #[test]
    fn sentences_keep_closing_quotes() {
        let text = "他道：“走！”众人去了。\n次日";
        let s: Vec<&str> = sentences(text).into_iter().map(|r| &text[r]).collect();
        assert_eq!(s, ["他道：“走！”", "众人去了。", "次日"]);
    }
}
