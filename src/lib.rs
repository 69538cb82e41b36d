//! zhnovel: reads Chinese novels and tells who fights whom, where, and how often.
//!
//! The library holds every stage of the pipeline, one module per stage, each
//! passing plain data to the next:
//!
//! ```text
//! input → decode → chapter → clean → script   (book: one book read and normalized)
//!       → segment → entity → stats → relate → views   (analysis: a book's tables)
//!       → shelf (many books) → output (the only writer)
//! ```
//!
//! Leaves every stage may use: `error`, `hash`, `charset`, `dicts`,
//! `numerals`, `rows` (the tables' row structs). `analysis` runs the stages
//! over a book (parallel per chapter, then a deterministic merge); `shelf`
//! over many. A module uses only the modules before it in this order
//! (README "How the code is laid out"; tests/integration/layout.rs). The
//! binary only parses arguments into a plan and calls the library.
//!
//! ```
//! use zhnovel::script::{FerrousConverter, Normalized, ScriptConfig};
//! let conv = FerrousConverter::new(ScriptConfig::T2s).unwrap();
//! let text = Normalized::new("耶律撻烈率軍至錦州。北平軍守城。".to_string(), &conv);
//! assert_eq!(text.text, "耶律挞烈率军至锦州。北平军守城。");
//! assert_eq!(text.original(0, "耶律挞烈".len()), "耶律撻烈");
//! ```

pub mod analysis;
pub mod book;
pub mod book_eval;
pub mod chapter;
pub mod charset;
pub mod clean;
pub mod decode;
pub mod dicts;
pub mod entity;
pub mod error;
pub mod eval;
pub mod hash;
pub mod input;
pub mod key;
pub mod kwic;
pub mod numerals;
pub mod output;
pub mod relate;
pub mod rows;
pub mod script;
pub mod segment;
pub mod shelf;
pub mod stats;
pub mod train;
pub mod views;

pub use error::{Error, Result};
