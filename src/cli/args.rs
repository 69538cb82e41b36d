//! Command-line arguments (clap derive): plain option structs, one per
//! subcommand, made of shared groups. `plan` turns them into a `Plan`.

use clap::{Args, Parser, Subcommand, ValueEnum};
use std::path::PathBuf;
use zhnovel::stats::Window;

#[derive(Parser, Debug)]
#[command(
    name = "zhnovel",
    version,
    about = "Who fights whom, where, and how often: people, places, armies and factions in Chinese novels",
    after_help = "Examples:\n  zhnovel analyze corpus/ -o out/\n  zhnovel analyze 我的小说.txt -o out/ --threads 2\n  zhnovel entities 第一章.txt\n  zhnovel convert --config t2s 繁體.txt -o 简体.txt\n  zhnovel segment --pos 第一章.txt"
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
    /// Worker threads (default or 0: all cores; at most 4 per core). Tables are identical for any count.
    #[arg(long, global = true)]
    pub threads: Option<usize>,
    /// Print nothing on stderr but errors.
    #[arg(short, long, global = true)]
    pub quiet: bool,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Analyze a book (files, folders or -) and write its tables into a folder.
    #[command(
        after_help = "Examples:\n  zhnovel analyze corpus/ -o out/\n  zhnovel analyze novel.txt -o out/ --window sentence --format tsv\n  zhnovel analyze novel.txt -o out/ --graphml --gexf --format sqlite\n  zhnovel analyze --books shelf/ -o out/"
    )]
    Analyze(AnalyzeArgs),
    /// Split a whole-novel file into one UTF-8 file per chapter.
    #[command(after_help = "Example:\n  zhnovel split 水浒传.txt -o chapters/")]
    Split(SplitArgs),
    /// Convert between Traditional and Simplified script (OpenCC).
    #[command(
        after_help = "Examples:\n  zhnovel convert 繁體.txt\n  zhnovel convert --config s2t 简体.txt -o 繁體.txt"
    )]
    Convert(ConvertArgs),
    /// Cut text into words, like jieba's command line.
    #[command(
        after_help = "Examples:\n  zhnovel segment 第一章.txt\n  echo 耶律大石率军至居庸关 | zhnovel segment --pos"
    )]
    Segment(SegmentArgs),
    /// List candidate new words (names) found in the text, with scores.
    #[command(
        after_help = "Examples:\n  zhnovel discover novel.txt\n  zhnovel discover novel.txt --format dict > my.dict"
    )]
    Discover(DiscoverArgs),
    /// Print the entity table of the input on stdout.
    #[command(after_help = "Example:\n  zhnovel entities 第一章.txt")]
    Entities(EntitiesArgs),
    /// Train the learned entity model on books with answer keys.
    #[command(
        after_help = "Example:\n  zhnovel train --book a.txt --key a-key.tsv --book b.txt --key b-key.tsv -o model.tsv"
    )]
    Train(TrainArgs),
    /// Score the recognizer against an answer key (precision, recall, F1 per type).
    #[command(
        after_help = "Example:\n  zhnovel eval --gold tests/data/seeds-entities.csv corpus/seeds/"
    )]
    Eval(EvalArgs),
    /// Every mention of one entity in its context (key word in context).
    #[command(
        after_help = "Examples:\n  zhnovel kwic 鲁智深 corpus/shuihu/\n  zhnovel kwic 魯達 corpus/shuihu/ --width 20 --format csv"
    )]
    Kwic(KwicArgs),
    /// Merge book folders written by separate `analyze` runs into one shelf (as `analyze --books`).
    #[command(
        after_help = "Example:\n  parallel zhnovel analyze {} -o runs/{/.} ::: shelf/*.txt\n  zhnovel merge runs/* -o shelf-out/"
    )]
    Merge(MergeArgs),
}

/// How inputs are read and normalized: what `analyze`, `entities`,
/// `discover` and `eval` take. `split` and `segment` take only the groups
/// they use.
#[derive(Args, Debug, Clone)]
pub struct InputArgs {
    #[command(flatten)]
    pub decode: DecodeArgs,
    #[command(flatten)]
    pub chapters: ChapterArgs,
    #[command(flatten)]
    pub script: ScriptArgs,
}

/// How bytes become text.
#[derive(Args, Debug, Clone)]
pub struct DecodeArgs {
    /// Force an encoding (utf-8, utf-16le, utf-16be, gb18030, gbk, big5) instead of detecting it.
    #[arg(long)]
    pub encoding: Option<String>,
    /// Replace undecodable bytes instead of stopping at them.
    #[arg(long)]
    pub lossy: bool,
}

/// How a file is split into chapters.
#[derive(Args, Debug, Clone)]
pub struct ChapterArgs {
    /// Regex matched against each trimmed line to find chapter headings.
    #[arg(long, value_name = "REGEX")]
    pub chapter_pattern: Option<String>,
}

/// Script conversion for analysis.
#[derive(Args, Debug, Clone)]
pub struct ScriptArgs {
    /// Script conversion for analysis.
    #[arg(long, value_enum, default_value_t = ToSimplified::T2s)]
    pub convert: ToSimplified,
    /// An OpenCC JSON configuration file to use instead of --convert.
    #[arg(long, value_name = "FILE")]
    pub opencc_config: Option<PathBuf>,
}

/// Dictionaries for segmentation and entities.
#[derive(Args, Debug, Clone)]
pub struct LexiconArgs {
    #[command(flatten)]
    pub words: WordArgs,
    /// Aliases: canonical name, then its aliases, tab-separated; repeatable.
    #[arg(long = "aliases", value_name = "FILE")]
    pub aliases: Vec<PathBuf>,
    /// Names that are always entities: `name<TAB>type[<TAB>alias|alias]` lines; repeatable.
    #[arg(long = "names", value_name = "FILE")]
    pub names: Vec<PathBuf>,
    /// Words that are never entities, one a line; repeatable.
    #[arg(long = "not-names", value_name = "FILE")]
    pub not_names: Vec<PathBuf>,
    /// A learned entity model (written by `zhnovel train`) instead of the built-in one.
    #[arg(long, value_name = "FILE", conflicts_with = "no_model")]
    pub model: Option<PathBuf>,
    /// A learned name tagger (written by `zhnovel train --tagger-output`) instead of the built-in one.
    #[arg(long, value_name = "FILE", conflicts_with = "no_model")]
    pub tagger: Option<PathBuf>,
    /// Decide entities by the hand-written rules alone, without the learned model and tagger.
    #[arg(long)]
    pub no_model: bool,
}

/// Dictionaries for segmentation.
#[derive(Args, Debug, Clone)]
pub struct WordArgs {
    /// A jieba user dictionary (`word freq tag` lines); repeatable.
    #[arg(long = "dict", value_name = "FILE")]
    pub dicts: Vec<PathBuf>,
    /// Turn off jieba's HMM for unknown words.
    #[arg(long)]
    pub no_hmm: bool,
}

#[derive(ValueEnum, Debug, Clone, Copy, PartialEq, Eq)]
pub enum ToSimplified {
    T2s,
    Tw2s,
    Hk2s,
}

#[derive(ValueEnum, Debug, Clone, Copy, PartialEq, Eq)]
pub enum AnyConfig {
    T2s,
    S2t,
    Tw2s,
    S2tw,
    Hk2s,
    S2hk,
}

#[derive(ValueEnum, Debug, Clone, Copy, PartialEq, Eq)]
pub enum ScriptOut {
    Simplified,
    Traditional,
}

#[derive(ValueEnum, Debug, Clone, Copy, PartialEq, Eq)]
pub enum FormatArg {
    Csv,
    Tsv,
    Jsonl,
    /// `analyze` only: the book's tables in one zhnovel.sqlite.
    Sqlite,
}

#[derive(Args, Debug)]
pub struct AnalyzeArgs {
    /// Files, folders (every .txt inside, in natural order) or - for stdin.
    #[arg(required = true, value_name = "PATH")]
    pub paths: Vec<PathBuf>,
    /// Output folder (created if missing).
    #[arg(short, long, value_name = "DIR")]
    pub output: PathBuf,
    /// Each top-level file or folder of each PATH is a separate book.
    #[arg(long)]
    pub books: bool,
    /// Write into a non-empty folder that zhnovel did not create.
    #[arg(long)]
    pub force: bool,
    /// Analyze the other files when one fails (the exit code still says it failed).
    #[arg(long)]
    pub keep_going: bool,
    /// Also write the co-occurrence network as cooccurrence.graphml (Gephi, Cytoscape, networkx).
    #[arg(long)]
    pub graphml: bool,
    #[command(flatten)]
    pub views: ViewArgs,
    #[command(flatten)]
    pub table: TableArgs,
    #[command(flatten)]
    pub input: InputArgs,
    #[command(flatten)]
    pub lexicon: LexiconArgs,
}

impl AnalyzeArgs {
    /// The options of an `analyze` run, as run.json records them.
    pub fn options_json(&self) -> serde_json::Value {
        serde_json::json!({
            "books": self.books,
            "window": self.table.window.name(),
            "min_count": self.table.min_count,
            "all_words": self.table.all_words,
            "format": format!("{:?}", self.table.form.format).to_lowercase(),
            "bom": !self.table.no_bom,
            "script": format!("{:?}", self.table.form.script).to_lowercase(),
            "convert": format!("{:?}", self.input.script.convert).to_lowercase(),
            "opencc_config": self.input.script.opencc_config,
            "encoding": self.input.decode.encoding,
            "lossy": self.input.decode.lossy,
            "chapter_pattern": self.input.chapters.chapter_pattern,
            "dict": self.lexicon.words.dicts,
            "aliases": self.lexicon.aliases,
            "hmm": !self.lexicon.words.no_hmm,
            "graphml": self.graphml,
            "gexf": self.views.gexf,
            "graph_all": self.views.graph_all,
            "report": !self.views.no_report,
        })
    }
}

/// The views `analyze` writes beside the tables (network files, report.html).
#[derive(Args, Debug, Clone)]
pub struct ViewArgs {
    /// Also write the network as cooccurrence.gexf (GEXF 1.3, dynamic: one spell per run of chapters).
    #[arg(long)]
    pub gexf: bool,
    /// Network files hold every entity and pair, not the readable default selection.
    #[arg(long)]
    pub graph_all: bool,
    /// Do not write report.html.
    #[arg(long)]
    pub no_report: bool,
}

/// What the tables hold and how they are written.
#[derive(Args, Debug, Clone)]
pub struct TableArgs {
    /// Co-occurrence window: sentence, paragraph, chapter, or N characters.
    #[arg(long, default_value = "paragraph", value_parser = parse_window)]
    pub window: Window,
    /// Leave out words and pairs counted fewer times than this.
    #[arg(long, default_value_t = 1)]
    pub min_count: u64,
    /// Keep punctuation-free stopwords in frequency tables.
    #[arg(long)]
    pub all_words: bool,
    #[command(flatten)]
    pub form: FormArgs,
    /// CSV without the UTF-8 byte-order mark.
    #[arg(long)]
    pub no_bom: bool,
}

/// How a table is written: what `entities` (one table on stdout) takes too.
#[derive(Args, Debug, Clone)]
pub struct FormArgs {
    /// Table format.
    #[arg(long, value_enum, default_value_t = FormatArg::Csv)]
    pub format: FormatArg,
    /// Script of entity names in the tables (original spellings stay as written).
    #[arg(long, value_enum, default_value_t = ScriptOut::Simplified)]
    pub script: ScriptOut,
}

impl FormArgs {
    /// The table options of a command that only writes entity rows on
    /// stdout: the format, and defaults for the counts it does not print.
    pub fn table(&self) -> TableArgs {
        TableArgs {
            window: Window::Paragraph,
            min_count: 1,
            all_words: false,
            form: self.clone(),
            no_bom: true,
        }
    }
}

fn parse_window(s: &str) -> Result<Window, String> {
    Window::parse(s).ok_or_else(|| {
        format!("'{s}' is not sentence, paragraph, chapter or a number of characters")
    })
}

#[derive(Args, Debug)]
pub struct MergeArgs {
    /// Output folders of `zhnovel analyze`, one book each, named after the book.
    #[arg(required = true, value_name = "BOOK_DIR")]
    pub books: Vec<PathBuf>,
    /// Folder for the shelf: each book's tables in `<book>/`, books.csv and entities.csv.
    #[arg(short, long, value_name = "DIR")]
    pub output: PathBuf,
    /// Write into a folder that zhnovel did not write.
    #[arg(long)]
    pub force: bool,
}

#[derive(Args, Debug)]
pub struct SplitArgs {
    /// A whole-novel text file.
    pub novel: PathBuf,
    /// Folder for the chapter files.
    #[arg(short, long, value_name = "DIR")]
    pub output: PathBuf,
    /// Write into a non-empty folder.
    #[arg(long)]
    pub force: bool,
    #[command(flatten)]
    pub decode: DecodeArgs,
    #[command(flatten)]
    pub chapters: ChapterArgs,
}

#[derive(Args, Debug)]
pub struct ConvertArgs {
    /// OpenCC configuration.
    #[arg(long, value_enum, default_value_t = AnyConfig::T2s)]
    pub config: AnyConfig,
    /// An OpenCC JSON configuration file instead of --config.
    #[arg(long, value_name = "FILE")]
    pub opencc_config: Option<PathBuf>,
    /// Input file (default: stdin).
    pub file: Option<PathBuf>,
    /// Output file (default: stdout).
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Force the input encoding.
    #[arg(long)]
    pub encoding: Option<String>,
}

#[derive(Args, Debug)]
pub struct SegmentArgs {
    /// Input file (default: stdin).
    pub file: Option<PathBuf>,
    /// Print word/tag.
    #[arg(long)]
    pub pos: bool,
    /// Word separator.
    #[arg(short = 'd', long, default_value = " ")]
    pub delimiter: String,
    #[command(flatten)]
    pub decode: DecodeArgs,
    #[command(flatten)]
    pub script: ScriptArgs,
    #[command(flatten)]
    pub words: WordArgs,
}

#[derive(ValueEnum, Debug, Clone, Copy, PartialEq, Eq)]
pub enum DiscoverFormat {
    Csv,
    Tsv,
    Dict,
    /// `name<TAB>type<TAB>alias|alias` lines, what `--names` reads.
    Names,
}

#[derive(Args, Debug)]
pub struct DiscoverArgs {
    /// Files or folders (one book).
    #[arg(required = true)]
    pub paths: Vec<PathBuf>,
    /// csv/tsv with scores, or `dict`: jieba user-dictionary lines.
    #[arg(long, value_enum, default_value_t = DiscoverFormat::Csv)]
    pub format: DiscoverFormat,
    /// How many candidates at most.
    #[arg(long, default_value_t = 200)]
    pub top: usize,
    #[command(flatten)]
    pub input: InputArgs,
    #[command(flatten)]
    pub lexicon: LexiconArgs,
}

#[derive(Args, Debug)]
pub struct EntitiesArgs {
    /// Files or folders (one book).
    #[arg(required = true)]
    pub paths: Vec<PathBuf>,
    #[command(flatten)]
    pub form: FormArgs,
    #[command(flatten)]
    pub input: InputArgs,
    #[command(flatten)]
    pub lexicon: LexiconArgs,
}

#[derive(ValueEnum, Debug, Clone, Copy, PartialEq, Eq)]
pub enum KwicFormat {
    Plain,
    Csv,
}

#[derive(Args, Debug)]
pub struct KwicArgs {
    /// The entity: its name, a spelling, a variant or an alias (Traditional or Simplified).
    pub name: String,
    /// Files or folders (one book).
    #[arg(required = true)]
    pub paths: Vec<PathBuf>,
    /// Characters of context on each side.
    #[arg(long, default_value_t = 10)]
    pub width: usize,
    /// `plain`: aligned lines, no header; `csv`: chapter,offset,left,match,right,entity,type.
    #[arg(long, value_enum, default_value_t = KwicFormat::Plain)]
    pub format: KwicFormat,
    #[command(flatten)]
    pub input: InputArgs,
    #[command(flatten)]
    pub lexicon: LexiconArgs,
}

#[derive(Args, Debug)]
pub struct EvalArgs {
    /// Chapter answer key CSV: file,type,canonical,aliases,required,note
    /// (each input file is scored on its own).
    #[arg(long, required_unless_present = "key", conflicts_with = "key")]
    pub gold: Option<PathBuf>,
    /// Book answer key: `type<TAB>canonical<TAB>aliases<TAB>main<TAB>side<TAB>note`
    /// (all inputs are one book, scored like shared/tools/score_book.py).
    #[arg(long)]
    pub key: Option<PathBuf>,
    /// With --key: how many top persons are checked.
    #[arg(long, default_value_t = 50)]
    pub top_persons: usize,
    /// Files or folders; each file is scored on its own.
    #[arg(required = true)]
    pub paths: Vec<PathBuf>,
    #[command(flatten)]
    pub input: InputArgs,
    #[command(flatten)]
    pub lexicon: LexiconArgs,
}

#[derive(Args, Debug)]
pub struct TrainArgs {
    /// A book (file or folder); give one `--key` per `--book`, in the same order.
    #[arg(long = "book", value_name = "PATH", required = true)]
    pub books: Vec<PathBuf>,
    /// The book's key: `type<TAB>canonical<TAB>aliases<TAB>main<TAB>side<TAB>note`.
    /// A `<book>-notnames.txt` beside a `<book>-key.tsv` is read as checked non-names.
    #[arg(long = "key", value_name = "FILE", required = true)]
    pub keys: Vec<PathBuf>,
    /// Where to write the model.
    #[arg(short, long, value_name = "FILE")]
    pub output: PathBuf,
    /// Also train the name tagger and write it here.
    #[arg(long = "tagger-output", value_name = "FILE")]
    pub tagger_output: Option<PathBuf>,
    /// Passes of the tagger's training over the books.
    #[arg(long, default_value_t = 10)]
    pub epochs: usize,
    /// Gradient steps.
    #[arg(long, default_value_t = 400)]
    pub steps: usize,
    /// L2 penalty on the weights.
    #[arg(long, default_value_t = 1e-3)]
    pub l2: f32,
    /// Hidden units of the entity model beside its linear part (0: a
    /// plain logistic regression).
    #[arg(long, default_value_t = 8)]
    pub hidden: usize,
    #[command(flatten)]
    pub input: InputArgs,
    #[command(flatten)]
    pub lexicon: LexiconArgs,
}
