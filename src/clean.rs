//! Clean: removes scraping debris before analysis so it never becomes a word
//! or an entity: empty brackets (`[]`, `【】`), runs of `*` used as masks
//! (`**包`), U+FFFD left by lossy decoding, and whole lines that are site
//! adverts or URLs. Full-width ASCII letters and digits fold to half-width so
//! they count as one word. Straight double quotes (`"`, `＂`) in a line of
//! Chinese become curly ones, opening and closing in turn, as the
//! dialogue and name passes read them (many web texts type `"`). It never
//! converts script.

/// Text after cleaning and how many characters were removed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cleaned {
    pub text: String,
    pub junk_removed: usize,
}

/// Phrases that mark a line as a scraping site's advert rather than story text.
const AD_MARKERS: &[&str] = &[
    "Project Gutenberg",
    "http://",
    "https://",
    "www.",
    ".com",
    ".net",
    ".org",
    "本章未完",
    "点击下一页",
    "點擊下一頁",
    "最新章节",
    "最新章節",
    "手机阅读",
    "手機閱讀",
    "天才一秒记住",
    "天才一秒記住",
    "笔趣阁",
    "筆趣閣",
    "求月票",
    "求推荐票",
    "求推薦票",
    "请收藏",
    "請收藏",
    "本书首发",
    "本書首發",
    "无弹窗",
    "無彈窗",
    "章节错误",
    "章節錯誤",
];

/// Cleans a chapter's text (paragraphs separated by `\n`).
pub fn clean(text: &str) -> Cleaned {
    let mut out = String::with_capacity(text.len());
    let mut removed = 0;
    for (i, line) in text.split('\n').enumerate() {
        if is_ad_line(line) {
            removed += line.chars().count();
            continue;
        }
        let before = out.len();
        if i > 0 && !out.is_empty() {
            out.push('\n');
        }
        let line_start = out.len();
        removed += clean_line(line, &mut out);
        if out.len() == line_start {
            out.truncate(before);
        }
    }
    Cleaned {
        text: out,
        junk_removed: removed,
    }
}

fn is_ad_line(line: &str) -> bool {
    AD_MARKERS.iter().any(|m| line.contains(m))
}

/// Appends the cleaned line to `out`; returns how many characters it dropped.
fn clean_line(line: &str, out: &mut String) -> usize {
    let chars: Vec<char> = line.chars().collect();
    let curl = chars.iter().any(|&c| crate::charset::is_han(c));
    let mut open = false;
    let mut removed = 0;
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        match c {
            '"' | '＂' if curl => {
                out.push(if open { '”' } else { '“' });
                open = !open;
                i += 1;
            }
            '*' | '＊' | '\u{FFFD}' => {
                removed += 1;
                i += 1;
            }
            '[' | '【' | '［' | '〔' => {
                // Empty bracket pairs are debris; brackets with content are text.
                let close = match c {
                    '[' => ']',
                    '【' => '】',
                    '［' => '］',
                    _ => '〕',
                };
                let mut j = i + 1;
                while j < chars.len() && chars[j].is_whitespace() {
                    j += 1;
                }
                if j < chars.len() && chars[j] == close {
                    removed += j + 1 - i;
                    i = j + 1;
                } else {
                    out.push(c);
                    i += 1;
                }
            }
            'Ａ'..='Ｚ' | 'ａ'..='ｚ' | '０'..='９' => {
                out.push(char::from_u32(c as u32 - 0xFEE0).expect("full-width ASCII folds"));
                i += 1;
            }
            _ => {
                out.push(c);
                i += 1;
            }
        }
    }
    removed
}

#[cfg(test)]
mod tests {
    use super::clean;

    #[test]
    fn debris_is_removed_and_counted() {
        let c = clean("东西了。[]\n手榴弹、**包更是\n十之**。\n【】");
        assert_eq!(c.text, "东西了。\n手榴弹、包更是\n十之。");
        assert_eq!(c.junk_removed, 2 + 2 + 2 + 2);
    }

    #[test]
    fn ad_lines_go_whole_and_brackets_with_text_stay() {
        let c = clean("正文。\n天才一秒记住本站地址 www.example.com\n【注】说明");
        assert_eq!(c.text, "正文。\n【注】说明");
        assert!(c.junk_removed > 10);
    }

    #[test]
    fn straight_quotes_in_chinese_lines_curl_in_turn() {
        let c = clean("韩千山道：\"走吧。\"柯北辰说：＂好。＂\n\"一\n He said \"hi\".");
        assert_eq!(
            c.text,
            "韩千山道：“走吧。”柯北辰说：“好。”\n“一\n He said \"hi\"."
        );
        assert_eq!(c.junk_removed, 0);
    }

    #[test]
    fn fullwidth_ascii_folds() {
        assert_eq!(clean("第１２章ＡＢ").text, "第12章AB");
    }
}
