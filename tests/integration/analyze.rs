//! `zhnovel analyze` end to end: tables, their schemas, chapter splitting,
//! determinism across thread counts, re-runs into the same folder.

use crate::util::*;
use std::collections::BTreeMap;

fn read_tables(dir: &std::path::Path) -> BTreeMap<String, Vec<u8>> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e != "json"))
        // Not the lock zhnovel keeps in its output folders (.zhnovel.lock).
        .filter(|p| !p.file_name().unwrap().to_string_lossy().starts_with('.'))
        .map(|p| {
            (
                p.file_name().unwrap().to_string_lossy().to_string(),
                std::fs::read(&p).unwrap(),
            )
        })
        .collect()
}

#[test]
fn seeds_give_the_issue_entities_and_one_chapter_row_per_file() {
    let d = Dir::new();
    let out = d.path("out");
    zhnovel(&["analyze", "corpus/seeds", "-o", p(&out), "-q"]).success();
    let chapters = records(&out.join("chapters.csv"));
    assert_eq!(chapters.len(), 4);
    for (row, name) in chapters.iter().zip(SEEDS) {
        assert!(row[2].ends_with(name), "{row:?}");
    }
    let yelu = entity_row(&out, "耶律挞烈").expect("耶律挞烈 found");
    assert_eq!(&yelu[1], "person");
    assert_eq!(&yelu[5], "耶律撻烈", "original spelling");
    assert_eq!(&entity_row(&out, "居庸关").expect("居庸关")[1], "place");
    assert_eq!(&entity_row(&out, "神武军").expect("神武军")[1], "army");
    // Mentions point at the original spelling in the chapter text.
    let mentions = records(&out.join("mentions.csv"));
    let m = mentions.iter().find(|r| &r[1] == "耶律挞烈").unwrap();
    assert_eq!(&m[3], "耶律撻烈");
    assert!(
        m[6].contains("耶律撻烈"),
        "sentence holds the mention: {m:?}"
    );
    let (start, end): (usize, usize) = (m[4].parse().unwrap(), m[5].parse().unwrap());
    assert_eq!(end - start, 4);
}

#[test]
fn table_headers_bom_and_line_endings() {
    let d = Dir::new();
    let out = d.path("out");
    zhnovel(&["analyze", "corpus/seeds", "-o", p(&out), "-q"]).success();
    let headers = [
        ("entities.csv", "entity,type,count,chapters,first_chapter,original,variants,aliases,evidence,confidence"),
        ("mentions.csv", "chapter,entity,type,surface,start,end,sentence"),
        ("cooccurrence.csv", "source,target,source_type,target_type,count,pmi"),
        ("frequency.csv", "word,pos,count,chapters"),
        ("chapters.csv", "index,title,file,encoding,characters,words,mentions,junk_removed"),
    ];
    for (file, header) in headers {
        let text = d.read(&format!("out/{file}"));
        assert!(text.starts_with('\u{FEFF}'), "{file} has a BOM");
        assert_eq!(text[3..].split("\r\n").next().unwrap(), header, "{file}");
    }
    // Stopwords and punctuation are not in the frequency table.
    let freq = records(&out.join("frequency.csv"));
    assert!(freq.len() > 100);
    for stop in ["的", "了", "，", "。"] {
        assert!(
            !freq.iter().any(|r| &r[0] == stop),
            "{stop} in frequency.csv"
        );
    }
    // Counts are sorted descending.
    let counts: Vec<u64> = freq.iter().map(|r| r[2].parse().unwrap()).collect();
    assert!(counts.windows(2).all(|w| w[0] >= w[1]));
    // Junk was removed and counted: seed 000 has `[]` and `**`.
    let chapters = records(&out.join("chapters.csv"));
    assert_eq!(&chapters[0][7], "4");
    assert!(!d.read("out/frequency.csv").contains("**"));

    let out2 = d.path("tsv");
    zhnovel(&[
        "analyze",
        "corpus/seeds",
        "-o",
        p(&out2),
        "-q",
        "--format",
        "tsv",
    ])
    .success();
    assert!(d.read("tsv/chapters.tsv").starts_with("index\ttitle\tfile"));
    let out3 = d.path("jsonl");
    zhnovel(&[
        "analyze",
        "corpus/seeds",
        "-o",
        p(&out3),
        "-q",
        "--format",
        "jsonl",
    ])
    .success();
    let first = d.read("jsonl/chapters.jsonl");
    let v: serde_json::Value = serde_json::from_str(first.lines().next().unwrap()).unwrap();
    assert_eq!(v["index"], 1);
    let out4 = d.path("nobom");
    zhnovel(&["analyze", "corpus/seeds", "-o", p(&out4), "-q", "--no-bom"]).success();
    assert!(d.read("nobom/chapters.csv").starts_with("index,"));
}

#[test]
fn tables_are_byte_identical_at_any_thread_count() {
    let d = Dir::new();
    let mut outputs = Vec::new();
    for threads in ["1", "2", "4"] {
        let out = d.path(&format!("t{threads}"));
        zhnovel(&[
            "analyze",
            "corpus/",
            "-o",
            p(&out),
            "-q",
            "--threads",
            threads,
            "--graphml",
            "--gexf",
        ])
        .success();
        outputs.push(read_tables(&out));
    }
    // Five tables, timeline, cooccurrence-chapters, report.html and the networks,
    // quotes, dialogue and relations.
    assert_eq!(outputs[0].len(), 13);
    assert!(outputs[0].values().all(|t| t.len() > 100));
    assert_eq!(outputs[0], outputs[1]);
    assert_eq!(outputs[0], outputs[2]);
}

#[test]
fn whole_novel_file_is_split_at_its_headings() {
    let d = Dir::new();
    // A novel in one file with CRLF endings, a preface, a volume heading,
    // headings with and without titles, in several numeral forms.
    let parts = [seed(SEEDS[0]), seed(SEEDS[3]), seed(SEEDS[1])];
    let novel = format!(
        "本书纯属虚构。\r\n第一卷 北伐\r\n第一章 榆关\r\n{}\r\n第２章\r\n{}\r\n第三章：錦州\r\n{}\r\n尾声\r\n全书完。\r\n",
        parts[0].replace('\n', "\r\n"),
        parts[1].replace('\n', "\r\n"),
        parts[2].replace('\n', "\r\n"),
    );
    let file = d.write("novel.txt", novel.as_bytes());
    let out = d.path("out");
    zhnovel(&["analyze", p(&file), "-o", p(&out), "-q"]).success();
    let titles: Vec<String> = records(&out.join("chapters.csv"))
        .iter()
        .map(|r| r[1].to_string())
        .collect();
    assert_eq!(
        titles,
        ["前言", "第一章 榆关", "第２章", "第三章：錦州", "尾声"]
    );

    let split = d.path("split");
    zhnovel(&["split", p(&file), "-o", p(&split), "-q"]).success();
    let mut names: Vec<String> = std::fs::read_dir(&split)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().to_string())
        .collect();
    names.sort();
    assert_eq!(
        names,
        [
            "001_前言.txt",
            "002_第一章_榆关.txt",
            "003_第２章.txt",
            "004_第三章：錦州.txt",
            "005_尾声.txt"
        ]
    );
    let second = d.read("split/002_第一章_榆关.txt");
    assert!(second.starts_with("第一章 榆关\n"));
    assert!(second.contains(seed(SEEDS[0]).lines().next().unwrap()));
    assert!(!second.contains('\r'));

    // A custom pattern overrides the default.
    let out2 = d.path("custom");
    zhnovel(&[
        "analyze",
        p(&file),
        "-o",
        p(&out2),
        "-q",
        "--chapter-pattern",
        "^第[一二三]章",
    ])
    .success();
    assert_eq!(records(&out2.join("chapters.csv")).len(), 3);
}

#[test]
fn gutenberg_layout_is_rejoined_and_split_by_hui() {
    let d = Dir::new();
    let out = d.path("out");
    zhnovel(&[
        "analyze",
        "corpus/shuihu/1-水滸傳-楔子至第二回-繁體.txt",
        "-o",
        p(&out),
        "-q",
    ])
    .success();
    let chapters = records(&out.join("chapters.csv"));
    let titles: Vec<&str> = chapters.iter().map(|r| &r[1]).collect();
    assert_eq!(titles[0], "楔子 張天師祈禳瘟疫 洪太尉誤走妖魔");
    assert_eq!(titles[2], "第二回 史大郎夜走華陰縣 魯提轄拳打鎮關西");
    assert_eq!(titles.len(), 3);
    // A sentence broken across two lines in the file is one sentence.
    let mentions = d.read("out/mentions.csv");
    assert!(!mentions.is_empty());
    let split = d.path("split");
    zhnovel(&[
        "split",
        "corpus/shuihu/1-水滸傳-楔子至第二回-繁體.txt",
        "-o",
        p(&split),
        "-q",
    ])
    .success();
    let first = d.read("split/001_楔子_張天師祈禳瘟疫_洪太尉誤走妖魔.txt");
    assert!(
        first.contains("那時百姓受了些快樂，誰道樂極悲生"),
        "wrapped line rejoined"
    );
}

#[test]
fn folder_chapters_come_in_natural_order_and_stdin_works() {
    let d = Dir::new();
    d.write("book/第10章.txt", seed(SEEDS[3]));
    d.write("book/第2章.txt", seed(SEEDS[0]));
    d.write("book/notes.md", "not a chapter");
    d.write("book/卷十/第12章.txt", seed(SEEDS[1]));
    d.write("book/卷二/第11章.txt", seed(SEEDS[2]));
    let out = d.path("out");
    zhnovel(&["analyze", p(&d.path("book")), "-o", p(&out), "-q"]).success();
    let files: Vec<String> = records(&out.join("chapters.csv"))
        .iter()
        .map(|r| r[1].to_string())
        .collect();
    // Paths compare component by component, numbers by value (卷二 < 卷十).
    assert_eq!(files, ["第11章", "第12章", "第2章", "第10章"]);

    let out2 = d.path("stdin");
    let text = seed(SEEDS[1]);
    zhnovel_stdin(
        &["analyze", "-", "-o", p(&out2), "-q"],
        Some(text.as_bytes()),
    )
    .success();
    let chapters = records(&out2.join("chapters.csv"));
    assert_eq!((&chapters[0][2], &chapters[0][3]), ("-", "utf-8"));
}

#[test]
fn rerun_replaces_tables_and_manifest_records_the_run() {
    let d = Dir::new();
    let out = d.path("out");
    zhnovel(&[
        "analyze",
        "corpus/seeds/000_d5ffedeeae825584.txt",
        "-o",
        p(&out),
        "-q",
    ])
    .success();
    let manifest: serde_json::Value = serde_json::from_str(&d.read("out/run.json")).unwrap();
    assert_eq!(manifest["tool"], "zhnovel");
    assert_eq!(manifest["options"]["window"], "paragraph");
    zhnovel(&[
        "analyze",
        "corpus/seeds",
        "-o",
        p(&out),
        "-q",
        "--window",
        "sentence",
    ])
    .success();
    assert_eq!(records(&out.join("chapters.csv")).len(), 4);
    let manifest: serde_json::Value = serde_json::from_str(&d.read("out/run.json")).unwrap();
    assert_eq!(manifest["options"]["window"], "sentence");
    // No temp files are left behind.
    assert!(std::fs::read_dir(&out).unwrap().all(|e| !e
        .unwrap()
        .file_name()
        .to_string_lossy()
        .ends_with(".tmp")));
}

#[test]
fn traditional_script_output_keeps_originals() {
    let d = Dir::new();
    let out = d.path("out");
    zhnovel(&[
        "analyze",
        "corpus/seeds",
        "-o",
        p(&out),
        "-q",
        "--script",
        "traditional",
    ])
    .success();
    let row = entity_row(&out, "耶律撻烈").expect("entity written in Traditional");
    assert_eq!(&row[5], "耶律撻烈");
    let jun = entity_row(&out, "神武軍").expect("神武軍");
    assert_eq!(&jun[5], "神武军", "original spelling stays as written");
}

#[test]
fn cooccurrence_pairs_are_ordered_and_window_changes_counts() {
    let d = Dir::new();
    let (a, b) = (d.path("para"), d.path("chap"));
    zhnovel(&["analyze", "corpus/seeds", "-o", p(&a), "-q"]).success();
    zhnovel(&[
        "analyze",
        "corpus/seeds",
        "-o",
        p(&b),
        "-q",
        "--window",
        "chapter",
    ])
    .success();
    let para = records(&a.join("cooccurrence.csv"));
    let chap = records(&b.join("cooccurrence.csv"));
    assert!(!para.is_empty());
    for r in &para {
        assert!(r[0] < r[1], "source < target: {r:?}");
        let _: f64 = r[5].parse().unwrap();
    }
    let total = |rows: &[csv::StringRecord]| {
        rows.iter()
            .map(|r| r[4].parse::<u64>().unwrap())
            .sum::<u64>()
    };
    assert!(chap.len() >= para.len());
    assert!(total(&chap) > 0 && total(&para) > 0);
    let out = d.path("n");
    zhnovel(&[
        "analyze",
        "corpus/seeds",
        "-o",
        p(&out),
        "-q",
        "--window",
        "30",
        "--min-count",
        "2",
    ])
    .success();
    for r in records(&out.join("cooccurrence.csv")) {
        assert!(r[4].parse::<u64>().unwrap() >= 2);
    }
}

/// Modern war fiction (an invented text): its people, places and units,
/// with units named by number (一营, 二营, 三营) and by word (独立团) once
/// the book writes their commanders (团长, 营长), and the slang for the
/// enemy (鬼子) an army.
#[test]
fn modern_war_fiction_gives_its_units_people_and_places() {
    let d = Dir::new();
    let out = analyze_invented(&d, "modern-war-invented.txt");
    let kind = |name: &str| entity_row(&out, name).map(|r| r[1].to_string());
    // 鬼子, the enemy's soldiers in the speech of the period, is its army.
    // 日军, a modern state's short name + 军; 第十二联队, a Japanese regiment.
    for unit in [
        "一营",
        "二营",
        "三营",
        "独立团",
        "第五师",
        "鬼子",
        "伪军",
        "日军",
        "第十二联队",
        // Armies of dict/armies.txt (八路军 said once).
        "新四军",
        "八路军",
    ] {
        assert_eq!(kind(unit).as_deref(), Some("army"), "{unit}");
    }
    for person in ["韩千山", "柯北辰", "苏青禾", "赵铁柱", "林望舒", "周明远"] {
        assert_eq!(kind(person).as_deref(), Some("person"), "{person}");
    }
    for place in ["柳河镇", "黑石岭"] {
        assert_eq!(kind(place).as_deref(), Some("place"), "{place}");
    }
    // 警卫连 is said twice and 连长 twice: enough in a text of a chapter's
    // size that writes the commanders of its echelons.
    assert_eq!(kind("警卫连").as_deref(), Some("army"));
}

/// Fiction of the war against Japan (an invented text): a base area said in
/// passing (延安, a listed place), the enemy state said only before its
/// people or its soldiers (日本人, 日本鬼子: no segmentation slip), the
/// period's name for the Japanese army (皇军), the parties, and a Japanese
/// officer (a family name of dict/surnames.txt's Japanese section).
#[test]
fn resistance_war_fiction_gives_its_base_area_enemy_state_and_armies() {
    let d = Dir::new();
    let out = analyze_invented(&d, "resistance-war-invented.txt");
    let kind = |name: &str| entity_row(&out, name).map(|r| r[1].to_string());
    for (name, want) in [
        ("霍长庚", "person"),
        ("周慕白", "person"),
        ("孙德胜", "person"),
        // a Japanese officer: 松本 of dict/surnames.txt's Japanese names
        ("松本一郎", "person"),
        ("延安", "place"),
        ("鹰嘴崖", "place"),
        ("日本", "faction"),
        ("国民党", "faction"),
        ("共产党", "faction"),
        ("皇军", "army"),
        ("八路军", "army"),
        ("鬼子", "army"),
        ("伪军", "army"),
    ] {
        assert_eq!(kind(name).as_deref(), Some(want), "{name}");
    }
}

/// Runs `analyze` on one of the invented texts of tests/data; its output dir.
fn analyze_invented(d: &Dir, file: &str) -> std::path::PathBuf {
    let out = d.path("out");
    let input = format!("tests/data/{file}");
    zhnovel(&["analyze", &input, "-o", p(&out), "-q"]).success();
    out
}

/// An urban web novel (an invented text): the cast, a company, a city named
/// with a landform, and speech introduced by a gesture and a colon.
#[test]
fn web_novel_gives_its_cast_company_city_and_speakers() {
    let d = Dir::new();
    let out = analyze_invented(&d, "web-novel-invented.txt");
    let kind = |name: &str| entity_row(&out, name).map(|r| r[1].to_string());
    for person in ["林墨", "苏晚晴", "陈浩", "沈清秋", "韩少杰", "赵德海"] {
        assert_eq!(kind(person).as_deref(), Some("person"), "{person}");
    }
    assert_eq!(kind("天盛集团").as_deref(), Some("faction"));
    assert_eq!(kind("江城").as_deref(), Some("place"));
    // 海城比江城大得多: no place 比江城.
    assert_eq!(kind("比江城"), None);
    let quotes = records(&out.join("quotes.csv"));
    let speaker = |quote: &str| {
        quotes
            .iter()
            .find(|r| &r[3] == quote)
            .map(|r| (r[4].to_string(), r[7].to_string()))
    };
    // 林墨冷笑一声：“来得正好。”
    assert_eq!(
        speaker("来得正好。"),
        Some(("林墨".into(), "explicit".into()))
    );
    // 林墨摇了摇头：“瘦点好。”
    assert_eq!(
        speaker("瘦点好。"),
        Some(("林墨".into(), "explicit".into()))
    );
    // 她看见林墨，挂了电话说：“…”: 她 is 苏晚晴, named before.
    assert_eq!(
        speaker("陈浩约你晚上在云顶酒店见面。"),
        Some(("苏晚晴".into(), "pronoun".into()))
    );
}

/// Wuxia (an invented text): the hero, his master, the villain whose given
/// name holds 无 (a function character common in given names), the sect
/// and its mountain.
#[test]
fn wuxia_gives_its_people_sect_and_places() {
    let d = Dir::new();
    let out = analyze_invented(&d, "wuxia-invented.txt");
    let kind = |name: &str| entity_row(&out, name).map(|r| r[1].to_string());
    for person in ["厉无涯", "萧寒舟", "柯北辰", "苏青禾"] {
        assert_eq!(kind(person).as_deref(), Some("person"), "{person}");
    }
    assert_eq!(kind("青云派").as_deref(), Some("faction"));
    for place in ["青云山", "落霞镇"] {
        assert_eq!(kind(place).as_deref(), Some("place"), "{place}");
    }
    // The master is a member of his sect.
    let relations = records(&out.join("relations.csv"));
    assert!(
        relations
            .iter()
            .any(|r| &r[0] == "柯北辰" && &r[1] == "member_of" && &r[2] == "青云派"),
        "{relations:?}"
    );
}

/// Modern war fiction naming its units by Arabic numerals and with a
/// prefix (an invented text): 771团, 新二团; and the commander called by
/// his colleague 老 + his surname.
#[test]
fn units_numbered_in_digits_and_forms_of_address() {
    let d = Dir::new();
    let out = analyze_invented(&d, "modern-units-invented.txt");
    let kind = |name: &str| entity_row(&out, name).map(|r| r[1].to_string());
    for unit in ["771团", "新二团", "松井联队"] {
        assert_eq!(kind(unit).as_deref(), Some("army"), "{unit}");
    }
    // 新二团 is the unit's name, not 二团 after the word 新.
    assert_eq!(kind("二团"), None);
    let he = entity_row(&out, "贺铁林").expect("贺铁林");
    assert_eq!(&he[1], "person");
    assert!(he[7].split('|').any(|a| a == "老贺"), "{he:?}");
}

/// A western setting (an invented text): transliterated names no surname
/// starts, the full names written with a dot, and a foreign town.
#[test]
fn transliterated_names_full_names_and_towns() {
    let d = Dir::new();
    let out = analyze_invented(&d, "western-setting-invented.txt");
    let kind = |name: &str| entity_row(&out, name).map(|r| r[1].to_string());
    for person in ["克洛维斯", "塞琳娜", "卡洛斯"] {
        assert_eq!(kind(person).as_deref(), Some("person"), "{person}");
    }
    assert_eq!(kind("维尔斯堡").as_deref(), Some("place"));
    let hero = entity_row(&out, "克洛维斯").expect("克洛维斯");
    assert!(
        hero[7].split('|').any(|a| a == "克洛维斯·莫尔森"),
        "{hero:?}"
    );
    // The mentions of the full name count for the person.
    let mentions = records(&out.join("mentions.csv"));
    assert!(
        mentions
            .iter()
            .any(|r| r.iter().any(|f| f == "克洛维斯·莫尔森")),
        "no mention of the full name"
    );
}
