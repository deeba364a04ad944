//! The errors of the library: each says what was wrong, where, and what was expected.

use std::fmt;

use thiserror::Error;

/// A grid definition that cannot be built.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
///
/// In every variant, `n` is the grid side.
pub enum GeometryError {
    /// The side is 0 or past [`crate::MAX_SIZE`].
    #[error("a grid side of {n} is out of range (expected 1 to {max})", max = crate::model::geometry::MAX_SIZE)]
    Size {
        #[allow(missing_docs)]
        n: usize,
    },
    /// A prime side has no box shape but 1×n.
    #[error(
        "{n} is prime, so {n}x{n} grids have no boxes (use --latin for a Latin square, or --regions for a jigsaw)"
    )]
    Prime {
        #[allow(missing_docs)]
        n: usize,
    },
    /// Boxes of `rows`×`cols` cells do not tile the grid.
    #[error("boxes of {rows}x{cols} do not tile a {n}x{n} grid (expected R x C = {n})")]
    BoxShape {
        #[allow(missing_docs)]
        n: usize,
        /// Rows of a box.
        rows: usize,
        /// Columns of a box.
        cols: usize,
    },
    /// A region map with `found` labels where `expected` (n²) were needed.
    #[error("the region map has {found} labels, expected {expected} (one per cell of the {n}x{n} grid)")]
    RegionsLength {
        #[allow(missing_docs)]
        n: usize,
        /// n².
        expected: usize,
        /// The labels in the map.
        found: usize,
    },
    /// A region map with `found` different labels where n were needed.
    #[error("the region map has {found} different labels, expected {n} (one per region)")]
    RegionCount {
        #[allow(missing_docs)]
        n: usize,
        /// The different labels in the map.
        found: usize,
    },
    /// A region of `size` cells where n were needed.
    #[error("region {region} (in order of first appearance) has {size} cells, expected {n}")]
    RegionSize {
        /// 1-based, in order of first appearance in the map.
        region: usize,
        /// Its cells.
        size: usize,
        #[allow(missing_docs)]
        n: usize,
    },
    /// Disjoint groups on a grid without boxes.
    #[error("disjoint groups need boxes (the cells in one position of every box)")]
    DisjointGroups,
    /// A variant clue no grid can satisfy.
    #[error("{constraint} {number}: {message}")]
    Constraint {
        /// 1-based among the clues.
        number: usize,
        /// Its kind (killer, thermo ...).
        constraint: String,
        /// What is wrong.
        message: String,
    },
    /// Boxes whose product is past the largest side.
    #[error("boxes of {rows}x{cols} make a grid side past {max} (the largest satdoku takes)", max = crate::model::geometry::MAX_SIZE)]
    BoxesTooLarge {
        /// Rows of a box.
        rows: usize,
        /// Columns of a box.
        cols: usize,
    },
    /// Hyper windows need n = b².
    #[error("hyper windows are defined for n = b² with b ≥ 2 (4, 9, 16, 25, ...), not for n = {n}")]
    Hyper {
        #[allow(missing_docs)]
        n: usize,
    },
    /// An extra unit that is not n distinct cells of the grid.
    #[error("extra unit {unit} has {size} distinct cells inside the grid, expected {n}")]
    ExtraUnit {
        /// 1-based, in the order given.
        unit: usize,
        #[allow(missing_docs)]
        n: usize,
        /// Its distinct cells inside the grid.
        size: usize,
    },
    /// A puzzle whose size is not the grid definition's.
    #[error("a {found}x{found} puzzle does not fit this {expected}x{expected} grid definition")]
    SizeMismatch {
        /// The definition's side.
        expected: usize,
        /// The puzzle's side.
        found: usize,
    },
}

/// Where in the input something was found: `file:line:column`, `file:line`,
/// or `file` for the input as a whole.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Position {
    /// The input's name: a path, or `<stdin>`.
    pub source: String,
    /// 1-based; 0 for the input as a whole.
    pub line: usize,
    /// 1-based, in characters.
    pub column: Option<usize>,
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.line, self.column) {
            (0, _) => write!(f, "{}", self.source),
            (line, Some(column)) => write!(f, "{}:{line}:{column}", self.source),
            (line, None) => write!(f, "{}:{line}", self.source),
        }
    }
}

/// Puzzle text that cannot be read.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("{position}: {kind}")]
pub struct ParseError {
    /// Where: the line, and the column of the cell at fault when there is one.
    pub position: Position,
    /// What.
    pub kind: ParseErrorKind,
}

/// What is wrong with puzzle text.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum ParseErrorKind {
    /// A character that is no symbol, empty mark or separator.
    #[error("{} is not a puzzle symbol (expected {expected})", shown(.symbol))]
    UnknownSymbol {
        /// The cell as written.
        symbol: String,
        /// What the grid takes, in words.
        expected: String,
    },
    /// A symbol of a value past the grid's side.
    #[error("{} is not a symbol of this {n}x{n} grid (expected {expected})", shown(.symbol))]
    ValueOutOfRange {
        /// The cell as written.
        symbol: String,
        /// The grid side.
        n: usize,
        /// What the grid takes, in words.
        expected: String,
    },
    /// A grid past 9×9 written with the digits from `0` (`0`-`F` for a
    /// 16×16) and another mark for empty: its `0`s are values, where the
    /// default alphabet reads `0` as empty and would solve another puzzle.
    #[error(
        "'0' is a value here: this {n}x{n} grid writes its empty cells as {}, and its values as 0-{last} (no '{past}' \
         for {n}), but satdoku reads '0' as empty (expected --symbols {symbols} to read it, or its values written 1-{past})",
        shown(.empty)
    )]
    ZeroAsValue {
        /// The grid side.
        n: usize,
        /// The grid's other empty mark, as written.
        empty: String,
        /// The symbol the grid writes for its largest value.
        last: char,
        /// The default alphabet's symbol for value n, never written in the grid.
        past: char,
        /// The alphabet that reads the grid as written.
        symbols: String,
    },
    /// A line that can start no puzzle: its cells are no n² (a puzzle) and
    /// no row of a block.
    #[error("a line of {count} cell{} starts no puzzle (expected {expected})", if *count == 1 { "" } else { "s" })]
    NotAPuzzle {
        /// The cells on the line.
        count: usize,
        /// What would have started one, in words.
        expected: String,
    },
    /// A line of k = m² cells that is no m×m puzzle (the grid cannot be
    /// made) and no row of a block (no rows follow).
    #[error("a line of {count} cells starts no puzzle: not a {side}x{side} puzzle ({why}), nor a row of a {count}x{count} block (no more rows of {count} cells follow it)")]
    LoneLine {
        /// The cells on the line.
        count: usize,
        /// The side of the puzzle it would be.
        side: usize,
        /// Why that grid cannot be made.
        why: GeometryError,
    },
    /// A block of rows that breaks before its last row.
    #[error("the puzzle that starts at line {first} has {rows} row{} of {n} cells, then {what} where row {next} was expected (a block is {n} rows of {n} cells, with only rule lines between them)", if *rows == 1 { "" } else { "s" }, next = rows + 1)]
    BrokenBlock {
        /// The line of its first row.
        first: usize,
        /// The rows read.
        rows: usize,
        /// The cells of a row, and the rows of the puzzle.
        n: usize,
        /// What came instead, in words.
        what: String,
    },
    /// A grid's row whose label does not go on from the rows above it.
    #[error("this row's label '{label}' does not go on from the rows above it ('{expected}' was expected): the puzzle that starts at line {first} has a row lost, written twice or out of order, so it is not read")]
    RowOutOfTurn {
        /// The line of the puzzle's first row.
        first: usize,
        /// The row's label.
        label: String,
        /// The label the rows above it count to.
        expected: String,
    },
    /// A row of a block with a cell too many or too few, its other rows whole.
    #[error("row {row} of the puzzle that starts at line {first} has {count} cell{} (expected {n}, as its other rows have)", if *count == 1 { "" } else { "s" })]
    DamagedRow {
        /// The line of the puzzle's first row.
        first: usize,
        /// The row, from 1.
        row: usize,
        /// Its cells.
        count: usize,
        /// The cells of a row, and the rows of the puzzle.
        n: usize,
    },
    /// A line inside a block whose rows make it whole without it: a row
    /// begun and typed again, or a line pasted in.
    #[error("a line of {count} cell{} inside the puzzle that starts at line {first}, whose {n} rows are whole without it (expected a row of {n} cells: a stray line, or a row begun and typed again; delete it)", if *count == 1 { "" } else { "s" })]
    StrayLine {
        /// The line of the puzzle's first row.
        first: usize,
        /// The stray line's cells.
        count: usize,
        /// The cells of a row, and the rows of the puzzle.
        n: usize,
    },
    /// Lines of one length, then a shorter one, none a puzzle or a row of
    /// one, whose cells make a whole puzzle together: a puzzle on one line
    /// wrapped across lines (`fold -w 80`, a mail client).
    #[error("the {lines} lines from line {first} hold {cells} cells together, a whole {side}x{side} puzzle, though none of them is a puzzle or a row of one: a puzzle on one line wrapped across lines? (join them into one line)")]
    WrappedPuzzle {
        /// The first line.
        first: usize,
        /// The lines.
        lines: usize,
        /// Their cells.
        cells: usize,
        /// The side of the puzzle they make.
        side: usize,
    },
    /// Two rows of a block on one line (a line end lost), its other rows
    /// whole.
    #[error("rows {row} and {next} of the puzzle that starts at line {first} are on one line ({count} cells, where a row has {n}: a line end lost), and its other rows are whole (put the line end back)", next = row + 1)]
    JoinedRows {
        /// The line of the puzzle's first row.
        first: usize,
        /// The first of the two rows.
        row: usize,
        /// The line's cells.
        count: usize,
        /// The cells of a row, and the rows of the puzzle.
        n: usize,
    },
    /// A blank line inside a block whose rows make it whole without it.
    #[error("a blank line inside the puzzle that starts at line {first}, whose {n} rows are whole without it (a puzzle's rows have only rule lines between them: delete it)")]
    BlankInGrid {
        /// The line of the puzzle's first row.
        first: usize,
        /// The cells of a row, and the rows of the puzzle.
        n: usize,
    },
    /// A candidate grid whose rows stop before its last one.
    #[error("the candidate grid that starts at line {first} has {rows} row{} of {m} cells, then {what} where row {next} was expected", if *rows == 1 { "" } else { "s" }, next = rows + 1)]
    ShortCandidateGrid {
        /// The line of its first row.
        first: usize,
        /// The rows read.
        rows: usize,
        /// The cells of a row, and the rows of the grid.
        m: usize,
        /// What came instead, in words.
        what: String,
    },
    /// A row of a candidate grid with a cell too many or too few.
    #[error("row {row} of the candidate grid that starts at line {first} has {count} cell{} (expected {m}, as the first row has)", if *count == 1 { "" } else { "s" })]
    CandidateRow {
        /// The line of the grid's first row.
        first: usize,
        /// The row, from 1.
        row: usize,
        /// Its cells.
        count: usize,
        /// The cells of a row.
        m: usize,
    },
    /// A word of a candidate grid that is no cell's candidates.
    #[error("{} is not a cell's candidates in a {m}x{m} candidate grid (expected digits 1-{m} in increasing order, each once)", shown(.word))]
    NotCandidates {
        /// The word as written.
        word: String,
        /// The grid side.
        m: usize,
    },
    /// Puzzles written back to back whose rows are not a whole number of
    /// puzzles: the stretch of lines where the odd one is.
    #[error("{}", run_message(*rows, *n, *first, *stretch, *told, *odd_rows))]
    Run {
        /// The rows of the run.
        rows: usize,
        /// The rows of a puzzle.
        n: usize,
        /// The line of the run's first row.
        first: usize,
        /// The first and last line of the stretch.
        stretch: (usize, usize),
        /// Whether the stretch is the one odd puzzle (the others were told apart).
        told: bool,
        /// The rows of the odd puzzle.
        odd_rows: usize,
    },
    /// A grid of n rows with a row too many: a row of only delimiters beside
    /// it reads as its empty first or last row rather than a blank line, and
    /// then another of the n + 1 rows is too many (a stray row, or one typed
    /// twice), which cannot be told.
    #[error("{}", row_too_many_message(*n, *stretch, *empty_row))]
    RowTooMany {
        /// The rows of a puzzle.
        n: usize,
        /// The first and last line of the n + 1 rows.
        stretch: (usize, usize),
        /// The line of the row of only delimiters: the first or the last.
        empty_row: usize,
    },
    /// Rows among puzzles written back to back that make no whole puzzle
    /// (a row lost or doubled), though the run's rows are a whole number of
    /// puzzles: the puzzles around them were framed by where their givens fit.
    #[error("{}", odd_puzzle_message(*rows, *n, *stretch, *told))]
    OddPuzzle {
        /// The rows of this piece.
        rows: usize,
        /// The rows of a puzzle.
        n: usize,
        /// The first and last line of the stretch it is in.
        stretch: (usize, usize),
        /// Whether the stretch is this piece alone (told apart by the givens).
        told: bool,
    },
    /// A grid of a run of grids each drawn in its own frame (a bottom frame
    /// right above the next top frame) whose frame holds another number of
    /// rows than its puzzle has: the other frames are read.
    #[error("lines {a}-{b}, one frame among puzzles framed back to back, hold {rows} row{} of {n} cells (expected {n}, as the other frames hold: a row lost or doubled?), so it is not read; the puzzles in the other frames are", if *rows == 1 { "" } else { "s" }, a = .stretch.0, b = .stretch.1)]
    FramedRows {
        /// The rows in the frame.
        rows: usize,
        /// The rows of a puzzle.
        n: usize,
        /// The first and last line of its rows.
        stretch: (usize, usize),
    },
    /// A puzzle of a run (puzzles written back to back) where the run shows
    /// a shift: a row lost or doubled before it may have moved where it
    /// starts, so its rows may be two puzzles' rows. It is not read.
    #[error("{}", unfenced_message(*n, *stretch, *run, *refuted, *shift))]
    Unfenced {
        /// The rows of a puzzle.
        n: usize,
        /// The first and last line of the puzzle as read.
        stretch: (usize, usize),
        /// The first and last line of the run.
        run: (usize, usize),
        /// Whether its givens contradict each other (else: it has no
        /// solution or several, as read).
        refuted: bool,
        /// What shows the shift.
        shift: Shift,
    },
    /// A title numbered as the titles of the puzzles around it (`Grid 02`
    /// between `Grid 01`'s puzzle and `Grid 03`), with no puzzle under it:
    /// that puzzle is missing.
    #[error("{} heads no puzzle: {} (expected its puzzle under it)", shown(.title), match .next {
        Some((line, next)) => format!("{}, at line {line}, comes right after it", shown(next)),
        None => "the input ends after it".to_string(),
    })]
    NoPuzzleUnderTitle {
        /// The title.
        title: String,
        /// The title or label after it, and its line; `None` where the
        /// input ends.
        next: Option<(usize, String)>,
    },
    /// A field of cells, in a line of fields, that is no whole puzzle: a
    /// puzzle cut in two by a stray delimiter.
    #[error("a field of {count} cells is no whole puzzle (expected n² cells, as 81 for 9x9): a puzzle cut by a stray '{delimiter}'?")]
    CutPuzzle {
        /// The cells of the field.
        count: usize,
        /// The line's field delimiter.
        delimiter: char,
    },
    /// A CSV row whose puzzle column is empty or missing.
    #[error("no puzzle in field {field} (the header's puzzle column): this row has {fields} field{}{}", if *fields == 1 { "" } else { "s" }, if field <= fields { ", that one empty" } else { "" })]
    NoField {
        /// The puzzle column, from 1.
        field: usize,
        /// The fields of the row.
        fields: usize,
    },
    /// A later field of a jigsaw file's row (janko.at's `id n givens
    /// regions solution`) that holds n² labels but makes no region map of
    /// the puzzle, nor is its solution.
    #[error("field {field} holds {count} labels, as a jigsaw row's regions do, but {message}")]
    RegionsField {
        /// The field, from 1.
        field: usize,
        /// Its labels.
        count: usize,
        /// What is wrong, and what was expected.
        message: String,
    },
    /// A row of a jigsaw file (rows that bring their regions, janko.at's
    /// `id n givens regions solution`) with no regions after its puzzle:
    /// the line cut short, or its regions lost. Read as it stands, it was
    /// solved with boxes, a puzzle nobody set.
    #[error("this row has no regions after its puzzle, where the jigsaw rows above it (from line {first}) have them in field {field} (the line may be cut short; expected n² region labels, 0 to n − 1)")]
    RegionsMissing {
        /// The field the rows above have their regions in, from 1.
        field: usize,
        /// The first jigsaw row of the input.
        first: usize,
    },
    /// A grid whose size has boxes of more than one shape, ruled so that
    /// no one shape is drawn: a row's `|` where the other rows have none,
    /// and no rule lines every h rows. With the default shape in their
    /// place, the puzzle solved was one nobody set (a 6×6 ruled in 3×2
    /// boxes, one row's `|` misplaced, was solved in 2×3 boxes).
    #[error("the box rules of the {n}x{n} grid from line {first} show no one shape of boxes ({}): the `|` of this line are not where the other rows have them, and the rule lines do not tell either (mend the rules, or give the shape with --box RxC)", shapes.iter().map(|(r, c)| format!("{r}x{c}")).collect::<Vec<_>>().join(", "))]
    BoxesUnclear {
        /// The first line of the grid.
        first: usize,
        /// Its side.
        n: usize,
        /// The shapes of boxes a grid of that side may have (rows, columns).
        shapes: Vec<(usize, usize)>,
    },
    /// A line longer than any grid needs; the rest of it was skipped.
    #[error("a line longer than {} MiB: no grid needs that many characters (the largest, 1024×1024 in numbers, needs about 5 MiB)", limit >> 20)]
    LineTooLong {
        /// The longest line read, in bytes.
        limit: usize,
    },
    /// A line with more cells than any grid has, however it is read: a
    /// symbol a cell, or a word a cell. Told before its cells are read, so
    /// that such a line costs no memory for them.
    #[error("a line of {symbols} symbols in {words} word{}: more cells than any grid has, a symbol or a word a cell (expected at most {max})", if *words == 1 { "" } else { "s" })]
    TooManyCells {
        /// Its characters that are no white space or delimiter.
        symbols: usize,
        /// Its words, between white space and delimiters.
        words: usize,
        /// The most cells a line may hold: a 1024×1024 grid's, or the n³
        /// symbols of pencil marks where an alphabet of n has more.
        max: usize,
    },
    /// A line that went on past `limit` bytes with no end: the rest of the
    /// input was not read.
    #[error("a line of more than {} GiB with no end: the rest of the input is not read", limit >> 30)]
    EndlessLine {
        /// How much of it was read, in bytes.
        limit: u64,
    },
    /// A byte that is no text.
    #[error("{what} (byte 0x{byte:02x}): puzzle text has no such byte")]
    BadByte {
        /// The byte.
        byte: u8,
        /// What it is, in words.
        what: &'static str,
    },
    /// A `--symbols` alphabet with fewer symbols than the grid has values.
    #[error("--symbols gives {symbols} symbols, but a {n}x{n} grid has {n} values")]
    ShortAlphabet {
        /// The symbols given.
        symbols: usize,
        /// The grid side.
        n: usize,
    },
    /// The puzzle's size does not make a grid of the options.
    #[error("{0}")]
    Geometry(GeometryError),
    /// The input cannot be read: a missing file, bad bytes.
    #[error("{0}")]
    Io(String),
    /// One input of several held text and no puzzle (what it held).
    #[error("no puzzle in this input: {0}")]
    NoPuzzle(String),
    /// An f-puzzles puzzle (`--fpuzzles`, or a line of a puzzle file) that cannot be read.
    #[error("{0}")]
    Fpuzzles(crate::text::fpuzzles::FpuzzlesError),
    /// An f-puzzles puzzle among puzzle text, where options chose the grid:
    /// it brings its own grid and rules.
    #[error(
        "an f-puzzles puzzle brings its own grid and rules, which {by} would change (read it without grid options)"
    )]
    FpuzzlesWithGrid {
        /// What chose the grid (`--box 3x3`, `--latin`, `--variant x`).
        by: String,
    },
}

/// A grid definition file (`--grid`) that cannot be read.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum GridFileError {
    /// Not the TOML a grid definition is written in.
    #[error("{path}: {message}")]
    Syntax {
        /// The file.
        path: String,
        /// What is wrong, and where.
        message: String,
    },
    /// Something wrong at a place in the file: a bad key or value, a clue no grid satisfies.
    #[error("{path}:{line}:{column}: {message}")]
    At {
        /// The file.
        path: String,
        /// 1-based.
        line: usize,
        /// 1-based, in characters.
        column: usize,
        /// What is wrong.
        message: String,
    },
    /// A definition that makes no grid.
    #[error("{path}: {error}")]
    Geometry {
        /// The file.
        path: String,
        /// Why the grid cannot be built.
        error: GeometryError,
    },
    /// The file cannot be read.
    #[error("{path}: cannot read: {message}")]
    Io {
        /// The file.
        path: String,
        /// The system's message.
        message: String,
    },
}

/// An internal contradiction: a model that does not decode to a valid grid.
/// Seeing one is a bug in satdoku, never a property of the puzzle.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("internal error: {0} (this is a bug in satdoku; please report it with the puzzle)")]
pub struct InternalError(pub String);

/// The message of [`ParseErrorKind::Run`].
fn run_message(rows: usize, n: usize, first: usize, (a, b): (usize, usize), told: bool, odd_rows: usize) -> String {
    let run = format!(
        "the {rows} rows from line {first} hold puzzles of {n} rows with nothing between them, and {rows} is no multiple of {n}"
    );
    if odd_rows == rows && rows > n {
        let (extra, delete) = match rows - n {
            1 => ("a row too many (a stray row, or a row typed twice)".to_string(), "the row that does"),
            k => (format!("{k} rows too many (stray rows, or rows typed twice)"), "the rows that do"),
        };
        return format!(
            "the {rows} rows from line {first} are one puzzle of {n} rows and {extra}, so it is not read (delete {delete} not belong)"
        );
    }
    let odd = format!("{odd_rows} row{}", if odd_rows == 1 { "" } else { "s" });
    match (told, a == b) {
        (true, true) => format!("{run}: line {a} is a row of its own (the puzzles around it were told apart by their givens; put a blank line between puzzles)"),
        (true, false) => format!("{run}: the puzzle at lines {a}-{b} has {odd} (the others were told apart by their givens; put a blank line between puzzles)"),
        (false, _) => format!("{run}: which puzzle of lines {a}-{b} has {odd} cannot be told, so none of them is read (put a blank line between puzzles)"),
    }
}

/// The message of [`ParseErrorKind::RowTooMany`].
fn row_too_many_message(n: usize, (a, b): (usize, usize), empty_row: usize) -> String {
    let edge = if empty_row == a { "first" } else { "last" };
    format!("lines {a}-{b} are one puzzle of {n} rows and a row too many: line {empty_row}, a row of only delimiters, reads as its empty {edge} row rather than a blank line, and another row is then a stray row or one typed twice, so it is not read (expected {n} rows: delete the row that does not belong)")
}

/// What shows that puzzles written back to back are shifted, for
/// [`ParseErrorKind::Unfenced`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shift {
    /// The n rows from this line, where no puzzle was read, have exactly one solution.
    Found(usize),
    /// This line is written twice, one right after the other.
    TypedTwice(usize),
    /// Two or more puzzles together, among puzzles of one solution, have
    /// not one as read.
    Among,
    /// The rows in the run that make no whole puzzle may be rows lost or
    /// doubled in two places or more (two odd stretches, or one of other
    /// than 1, n − 1 or n + 1 rows), and nothing fixes where this puzzle
    /// starts and ends.
    Several,
    /// Rows in the run make no whole puzzle, and the rows around this
    /// puzzle could not be checked in time.
    Untold,
    /// The puzzle is next to this line, a stray line or a row written wrong
    /// that was taken to be inside the puzzle on its other side: a line
    /// between puzzles instead would move where this one starts or ends.
    Between(usize),
}

fn unfenced_message(n: usize, (a, b): (usize, usize), (c, d): (usize, usize), refuted: bool, shift: Shift) -> String {
    let reads = match refuted {
        true => "contradict each other as a puzzle",
        false => "have not exactly one solution as a puzzle",
    };
    let but = match shift {
        Shift::Found(line) => format!("while the {n} rows from line {line} have exactly one"),
        Shift::TypedTwice(line) => format!("but line {line} is written twice"),
        Shift::Among => "as the puzzles next to them neither, while others in the run have exactly one".to_string(),
        Shift::Several => {
            "and the rows in the run that make no whole puzzle may be rows lost or doubled in more than one place"
                .to_string()
        }
        Shift::Untold => "and the rows around them could not be checked in time".to_string(),
        Shift::Between(line) => {
            format!("and line {line}, read as a line inside the puzzle next to them, may stand between puzzles instead")
        }
    };
    format!("the {n} rows at lines {a}-{b}, among puzzles written back to back at lines {c}-{d}, {reads}, {but}: a row lost or doubled may have shifted where this puzzle starts, so it is not read (put a blank line between puzzles)")
}

fn odd_puzzle_message(rows: usize, n: usize, (a, b): (usize, usize), told: bool) -> String {
    let rows_of = format!("{rows} row{} of {n} cells", if rows == 1 { "" } else { "s" });
    if told {
        format!("lines {a}-{b} hold {rows_of} among puzzles written back to back: no whole puzzle (a row lost or doubled?); the puzzles around them were read where their givens fit (put a blank line between puzzles)")
    } else {
        format!("lines {a}-{b}, puzzles of {n} rows written back to back, hold rows that make no whole puzzle (a row lost or doubled?), and which puzzle cannot be told from the givens, so none of them is read (put a blank line between puzzles)")
    }
}

/// Text from the input as messages quote it: at most 40 characters, a
/// control character written as its code (`U+0000`), never sent raw to a
/// terminal (an escape sequence from a file would be obeyed there).
pub(crate) fn echo(text: &str) -> String {
    const MAX: usize = 40;
    let (cut, more) = match text.char_indices().nth(MAX) {
        Some((end, _)) => (&text[..end], "…"),
        None => (text, ""),
    };
    printable(cut) + more
}

/// Text with each control character written as its code (`U+000A`), whole:
/// a file name as records and messages give it, on one line, and never an
/// escape sequence a terminal would obey.
pub fn printable(text: &str) -> String {
    let mut shown = String::with_capacity(text.len());
    for c in text.chars() {
        match c.is_control() {
            true => shown.push_str(&format!("U+{:04X}", c as u32)),
            false => shown.push(c),
        }
    }
    shown
}

/// A cell (or a region map's label) as messages quote it: `'Z'` (cut as
/// [`echo`] cuts), or `U+200B` for a character that would not show (a
/// control, a space other than ' ', a zero-width mark or a byte-order mark),
/// so the message never points at nothing.
pub(crate) fn shown(symbol: &str) -> String {
    let invisible = |c: char| {
        (c.is_whitespace() && c != ' ')
            || c.is_control()
            || matches!(c, '\u{ad}' | '\u{200b}'..='\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2060}'..='\u{206f}' | '\u{feff}')
    };
    if symbol.chars().any(invisible) {
        symbol
            .chars()
            .map(|c| if invisible(c) { format!("U+{:04X}", c as u32) } else { c.to_string() })
            .collect::<Vec<_>>()
            .join(" ")
    } else {
        format!("'{}'", echo(symbol))
    }
}
