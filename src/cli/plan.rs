//! The `Plan`: the arguments of one run turned once into what its
//! subcommand asks for: read options, the OpenCC converter, the table
//! options, and the dictionary engines (jieba with our dictionaries, the
//! entity lexicon and model). Nothing is global: a subcommand gets all of
//! it from the plan. The dictionaries (jieba's is most of the start-up) load
//! when a command first asks for them, so `analyze` can read its first book
//! while they load.

use crate::cli::{
    AnyConfig, ChapterArgs, Cli, Command, DecodeArgs, FormatArg, InputArgs, LexiconArgs,
    ScriptArgs, ScriptOut, TableArgs, ToSimplified, WordArgs,
};
use anyhow::{anyhow, Result};
use indicatif::{ProgressBar, ProgressStyle};
use std::collections::HashSet;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, OnceLock};
use zhnovel::analysis::{CountOptions, Engines};
use zhnovel::book::{load_book, ChapterText, ReadOptions};
use zhnovel::chapter::HeadingMatcher;
use zhnovel::decode::encoding_for_name;
use zhnovel::entity::model::Model;
use zhnovel::entity::tagger::Tagger;
use zhnovel::entity::{Lexicon, Recognizer, FEATURES};
use zhnovel::input::collect_sources;
use zhnovel::output::TableFormat;
use zhnovel::script::{Converter, FerrousConverter, ScriptConfig};
use zhnovel::segment::{Segmenter, Vocabulary};
use zhnovel::stats::Window;

/// Everything a subcommand uses, built once from the arguments.
pub struct Plan {
    /// Print nothing on stderr but errors.
    pub quiet: bool,
    /// How inputs are decoded and split into chapters.
    pub read: ReadOptions,
    /// The converter of the run: to Simplified for analysis, or the
    /// configuration `convert` asks for.
    pub converter: Box<dyn Converter>,
    /// Writes entity names in Traditional (`--script traditional`).
    pub display: Option<Box<dyn Converter>>,
    pub count: CountOptions,
    pub format: TableFormat,
    dictionaries: Loading<Dictionaries>,
}

/// The dictionary-based engines: the slow part of a plan.
struct Dictionaries {
    segmenter: Segmenter,
    /// Absent for commands that only cut words (`segment`).
    recognizer: Option<(Recognizer, HashSet<String>)>,
}

/// What a subcommand needs loaded.
enum Needs {
    Nothing,
    Words(WordArgs),
    Lexicon(LexiconArgs),
}

impl Plan {
    /// The plan of a run; a bad option stops here, before any input is read
    /// (a bad dictionary file is reported when the command first needs it,
    /// still before any table is written).
    pub fn new(cli: &Cli) -> Result<Plan> {
        let quiet = cli.quiet;
        let none = InputArgs {
            decode: DecodeArgs {
                encoding: None,
                lossy: false,
            },
            chapters: ChapterArgs {
                chapter_pattern: None,
            },
            script: ScriptArgs {
                convert: ToSimplified::T2s,
                opencc_config: None,
            },
        };
        let (input, table, needs) = match &cli.command {
            Command::Analyze(a) => (&a.input, Some(a.table.clone()), lexicon(&a.lexicon)),
            Command::Entities(a) => (&a.input, Some(a.form.table()), lexicon(&a.lexicon)),
            Command::Discover(a) => (&a.input, None, lexicon(&a.lexicon)),
            Command::Eval(a) => (&a.input, None, lexicon(&a.lexicon)),
            Command::Kwic(a) => (&a.input, None, lexicon(&a.lexicon)),
            Command::Train(a) => (&a.input, None, lexicon(&a.lexicon)),
            Command::Segment(a) => (&none, None, Needs::Words(a.words.clone())),
            Command::Split(_) | Command::Convert(_) | Command::Merge(_) => {
                (&none, None, Needs::Nothing)
            }
        };
        // The groups that `segment`, `split` and `convert` take on their own.
        let (decode, chapters, script) = match &cli.command {
            Command::Segment(a) => (&a.decode, &input.chapters, &a.script),
            Command::Split(a) => (&a.decode, &a.chapters, &input.script),
            _ => (&input.decode, &input.chapters, &input.script),
        };
        let mut read = read_options(decode, chapters)?;
        let converter = match &cli.command {
            Command::Convert(a) => {
                read.encoding = a.encoding.as_deref().map(encoding_for_name).transpose()?;
                converter_for(any_config(a.config), a.opencc_config.as_deref())?
            }
            _ => converter_for(
                to_simplified(script.convert),
                script.opencc_config.as_deref(),
            )?,
        };
        let display = match table.as_ref().map(|t| t.form.script) {
            Some(ScriptOut::Traditional) => {
                Some(Box::new(FerrousConverter::new(ScriptConfig::S2t)?) as Box<dyn Converter>)
            }
            _ => None,
        };
        Ok(Plan {
            quiet,
            read,
            converter,
            display,
            count: count_options(table.as_ref()),
            format: table_format(table.as_ref()),
            dictionaries: Loading::start(needs),
        })
    }

    /// jieba with our dictionaries and the user's (waits for them to load).
    pub fn segmenter(&self) -> Result<&Segmenter> {
        Ok(&self.dictionaries.get()?.segmenter)
    }

    /// The entity recognizer (waits for the dictionaries to load).
    pub fn recognizer(&self) -> Result<&Recognizer> {
        self.dictionaries
            .get()?
            .recognizer
            .as_ref()
            .map(|(r, _)| r)
            .ok_or_else(|| anyhow!("this command has no entity lexicon"))
    }

    /// The engines a book analysis lends to every thread.
    pub fn engines(&self) -> Result<Engines<'_>> {
        let dictionaries = self.dictionaries.get()?;
        let (recognizer, stopwords) = dictionaries
            .recognizer
            .as_ref()
            .ok_or_else(|| anyhow!("this command has no entity lexicon"))?;
        Ok(Engines {
            converter: self.converter.as_ref(),
            segmenter: &dictionaries.segmenter,
            recognizer,
            stopwords,
            display: self.display.as_deref(),
        })
    }

    /// Reads one book from paths; the first failing source is an error (the
    /// `analyze --keep-going` path handles failures itself).
    pub fn read_book(&self, paths: &[PathBuf]) -> Result<Vec<ChapterText>> {
        let sources = collect_sources(paths)?;
        let (chapters, mut errors) = load_book(&sources, &self.read, self.converter.as_ref());
        if !errors.is_empty() {
            return Err(errors.remove(0).into());
        }
        Ok(chapters)
    }

    /// A progress bar on stderr when it is a terminal, the job is long and
    /// the run not `-q`.
    pub fn progress(&self, len: usize, what: &str) -> ProgressBar {
        if self.quiet || len < 20 || !std::io::stderr().is_terminal() {
            return ProgressBar::hidden();
        }
        let bar = ProgressBar::new(len as u64);
        bar.set_style(
            ProgressStyle::with_template("{msg} [{bar:40}] {pos}/{len} {elapsed}")
                .expect("progress template is valid")
                .progress_chars("=> "),
        );
        bar.set_message(what.to_string());
        bar
    }
}

fn lexicon(args: &LexiconArgs) -> Needs {
    Needs::Lexicon(args.clone())
}

/// The dictionaries, loaded on first use (then kept): a command that never
/// asks (split, convert, merge) never loads them, and `analyze` asks on
/// one side of a `rayon::join` while it reads its first book on the other.
struct Loading<T> {
    needs: Needs,
    lock: Mutex<()>,
    value: OnceLock<T>,
}

impl Loading<Dictionaries> {
    fn start(needs: Needs) -> Loading<Dictionaries> {
        Loading {
            needs,
            lock: Mutex::new(()),
            value: OnceLock::new(),
        }
    }

    fn get(&self) -> Result<&Dictionaries> {
        let _one_loader = self.lock.lock().expect("plan loading lock");
        if let Some(value) = self.value.get() {
            return Ok(value);
        }
        let value = match &self.needs {
            Needs::Nothing => return Err(anyhow!("this command loads no dictionaries")),
            Needs::Words(words) => Dictionaries {
                segmenter: segmenter(&Vocabulary::load(), words)?,
                recognizer: None,
            },
            Needs::Lexicon(lexicon) => Dictionaries::load(lexicon)?,
        };
        Ok(self.value.get_or_init(|| value))
    }
}

impl Dictionaries {
    /// The segmenter (jieba + `dict/` + `--dict`) and the recognizer (our
    /// lexicon + `--aliases`, `--dict` names, `--names`, `--not-names`, the
    /// model), built side by side.
    fn load(lexicon: &LexiconArgs) -> Result<Dictionaries> {
        // jieba's dictionary loads while the lexicon files are read; then
        // the segmenter copies it while the recognizer is built over it.
        let (vocabulary, lex) = rayon::join(Vocabulary::load, || -> Result<Lexicon> {
            let mut lex = Lexicon::builtin();
            for path in &lexicon.aliases {
                lex.add_aliases_file(path)?;
            }
            for path in &lexicon.words.dicts {
                lex.add_dict_names(path)?;
            }
            for path in &lexicon.names {
                lex.add_names_file(path)?;
            }
            for path in &lexicon.not_names {
                lex.add_not_names_file(path)?;
            }
            Ok(lex)
        });
        let lex = lex?;
        let model = match (&lexicon.model, lexicon.no_model) {
            (_, true) => Some(None),
            (Some(path), false) => Some(Some(load_model(path)?)),
            (None, false) => None,
        };
        let tagger = match (&lexicon.tagger, lexicon.no_model) {
            (_, true) => Some(None),
            (Some(path), false) => Some(Some(load_tagger(path)?)),
            (None, false) => None,
        };
        let (segmenter, recognizer) = rayon::join(
            || segmenter(&vocabulary, &lexicon.words),
            || {
                let stopwords = lex.stopwords().clone();
                let mut recognizer = Recognizer::with_vocabulary(lex, vocabulary.clone());
                if let Some(model) = model {
                    recognizer = recognizer.with_model(model);
                }
                if let Some(tagger) = tagger {
                    recognizer = recognizer.with_tagger(tagger);
                }
                (recognizer, stopwords)
            },
        );
        Ok(Dictionaries {
            segmenter: segmenter?,
            recognizer: Some(recognizer),
        })
    }
}

/// jieba with our dictionaries and the user's, over a loaded vocabulary.
fn segmenter(vocabulary: &Vocabulary, words: &WordArgs) -> Result<Segmenter> {
    let mut segmenter = Segmenter::with_vocabulary(vocabulary, !words.no_hmm);
    for path in &words.dicts {
        segmenter.load_user_dict(path)?;
    }
    Ok(segmenter)
}

/// Reads a model file written by `zhnovel train`.
fn load_model(path: &Path) -> Result<Model> {
    let text = std::fs::read_to_string(path).map_err(|source| zhnovel::Error::Read {
        path: path.to_path_buf(),
        source,
    })?;
    Model::parse(&text, &FEATURES)
        .map_err(|m| anyhow!("{}: not a zhnovel entity model: {m}", path.display()))
}

/// Reads a tagger file written by `zhnovel train --tagger-output`.
fn load_tagger(path: &Path) -> Result<Tagger> {
    let text = std::fs::read_to_string(path).map_err(|source| zhnovel::Error::Read {
        path: path.to_path_buf(),
        source,
    })?;
    Tagger::parse(&text).map_err(|m| anyhow!("{}: not a zhnovel name tagger: {m}", path.display()))
}

fn read_options(decode: &DecodeArgs, chapters: &ChapterArgs) -> Result<ReadOptions> {
    let encoding = decode
        .encoding
        .as_deref()
        .map(encoding_for_name)
        .transpose()?;
    let headings = match &chapters.chapter_pattern {
        Some(p) => HeadingMatcher::custom(p)?,
        None => HeadingMatcher::default(),
    };
    Ok(ReadOptions {
        encoding,
        lossy: decode.lossy,
        headings,
    })
}

fn count_options(table: Option<&TableArgs>) -> CountOptions {
    match table {
        Some(t) => CountOptions {
            window: t.window,
            min_count: t.min_count,
            all_words: t.all_words,
        },
        None => CountOptions {
            window: Window::Paragraph,
            min_count: 1,
            all_words: false,
        },
    }
}

fn table_format(table: Option<&TableArgs>) -> TableFormat {
    match table.map(|t| (t.form.format, t.no_bom)) {
        Some((FormatArg::Tsv, _)) => TableFormat::Tsv,
        Some((FormatArg::Jsonl, _)) => TableFormat::Jsonl,
        Some((FormatArg::Csv, no_bom)) => TableFormat::Csv { bom: !no_bom },
        // A book's tables go to zhnovel.sqlite; shelf tables stay CSV.
        Some((FormatArg::Sqlite, no_bom)) => TableFormat::Csv { bom: !no_bom },
        None => TableFormat::Csv { bom: true },
    }
}

/// The one mapping from the script options to OpenCC configurations.
fn to_simplified(convert: ToSimplified) -> ScriptConfig {
    match convert {
        ToSimplified::T2s => ScriptConfig::T2s,
        ToSimplified::Tw2s => ScriptConfig::Tw2s,
        ToSimplified::Hk2s => ScriptConfig::Hk2s,
    }
}

fn any_config(config: AnyConfig) -> ScriptConfig {
    match config {
        AnyConfig::T2s => ScriptConfig::T2s,
        AnyConfig::S2t => ScriptConfig::S2t,
        AnyConfig::Tw2s => ScriptConfig::Tw2s,
        AnyConfig::S2tw => ScriptConfig::S2tw,
        AnyConfig::Hk2s => ScriptConfig::Hk2s,
        AnyConfig::S2hk => ScriptConfig::S2hk,
    }
}

/// The configured engine: ferrous-opencc by default, libopencc with the
/// `system-opencc` feature.
fn converter_for(config: ScriptConfig, file: Option<&Path>) -> Result<Box<dyn Converter>> {
    #[cfg(feature = "system-opencc")]
    {
        use zhnovel::script::SystemConverter;
        Ok(match file {
            Some(f) => Box::new(SystemConverter::from_file(f)?),
            None => Box::new(SystemConverter::new(config)?),
        })
    }
    #[cfg(not(feature = "system-opencc"))]
    {
        Ok(match file {
            Some(f) => Box::new(FerrousConverter::from_file(f)?),
            None => Box::new(FerrousConverter::new(config)?),
        })
    }
}
