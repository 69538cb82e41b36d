//! Numbers as novels write them in chapter headings and file names: ASCII and
//! full-width digits, Chinese numerals with units (一百二十三, 两千), and
//! digit-by-digit forms (一二○ = 120).

/// Whether `c` can be part of a number.
pub fn is_numeral_char(c: char) -> bool {
    c.is_ascii_digit()
        || ('０'..='９').contains(&c)
        || digit_value(c).is_some()
        || unit_value(c).is_some()
}

fn digit_value(c: char) -> Option<u64> {
    Some(match c {
        '零' | '〇' | '○' | 'Ｏ' => 0,
        '一' | '壹' => 1,
        '二' | '两' | '兩' | '贰' | '貳' => 2,
        '三' | '叁' | '參' => 3,
        '四' | '肆' => 4,
        '五' | '伍' => 5,
        '六' | '陆' | '陸' => 6,
        '七' | '柒' => 7,
        '八' | '捌' => 8,
        '九' | '玖' => 9,
        _ => {
            if c.is_ascii_digit() {
                c as u64 - '0' as u64
            } else if ('０'..='９').contains(&c) {
                c as u64 - '０' as u64
            } else {
                return None;
            }
        }
    })
}

fn unit_value(c: char) -> Option<u64> {
    Some(match c {
        '十' | '拾' => 10,
        '百' | '佰' => 100,
        '千' | '仟' => 1000,
        '万' | '萬' => 10_000,
        _ => return None,
    })
}

/// Parses a whole string as a number, or `None` if it is not one.
pub fn parse_number(s: &str) -> Option<u64> {
    if s.is_empty() {
        return None;
    }
    let chars: Vec<char> = s.chars().collect();
    if chars.iter().all(|&c| digit_value(c).is_some()) {
        // Digit by digit: 123, １２３, 一二○.
        let mut n: u64 = 0;
        for c in chars {
            n = n.checked_mul(10)?.checked_add(digit_value(c)?)?;
        }
        return Some(n);
    }
    // Positional with units: 一千零二十三, 十五, 两万三千.
    let mut total: u64 = 0;
    let mut section: u64 = 0;
    let mut digit: Option<u64> = None;
    for c in chars {
        if let Some(d) = digit_value(c) {
            if digit.is_some_and(|prev| prev != 0) {
                // Two digits in a row inside a positional number (一二十) is not a number.
                return None;
            }
            digit = Some(d);
        } else if let Some(u) = unit_value(c) {
            if u == 10_000 {
                section += digit.take().unwrap_or(0);
                if section == 0 {
                    return None;
                }
                total += section * u;
                section = 0;
            } else {
                section += digit.take().unwrap_or(1) * u;
            }
        } else {
            return None;
        }
    }
    Some(total + section + digit.unwrap_or(0))
}

#[cfg(test)]
mod tests {
    use super::parse_number;

    #[test]
    fn numeral_forms() {
        let cases = [
            ("1", 1),
            ("０１２", 12),
            ("十", 10),
            ("十五", 15),
            ("二十", 20),
            ("一百二十", 120),
            ("一百零八", 108),
            ("一二○", 120),
            ("一二〇", 120),
            ("两千", 2000),
            ("三万五千", 35000),
            ("九十九", 99),
        ];
        for (text, value) in cases {
            assert_eq!(parse_number(text), Some(value), "{text}");
        }
        assert_eq!(parse_number("章"), None);
        assert_eq!(parse_number(""), None);
    }
}
