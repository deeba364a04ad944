//! Grids saved from a spreadsheet: the readings that need the lines below
//! a line. A row of only delimiters may be a blank line or a grid's empty
//! row; a delimiter after every row may be an empty last column; labelled
//! rows and numbered headers make a grid only when enough of them follow.
//! Each is settled by whether the rows make whole grids, then by givens that
//! propagation refutes, then by the file's own way of parting grids.

use std::cmp::Ordering;
use std::io::BufRead;
use std::time::{Duration, Instant};

use super::line::{exact_sqrt, is_whole_count, Cells, LineKind, Token, TokenText};
use super::{
    is_block_row, is_small_puzzle, time_left, typed_twice, Entry, PuzzleReader, RowSigns, Stray, FRAMING_TIME,
    GUESS_TIME, MAX_RUN_CELLS, MAX_RUN_ROWS,
};
use crate::error::ParseErrorKind;
use crate::model::geometry::MAX_SIZE;
use crate::text::symbols::Symbol;

/// The last place in rows (each a row of only delimiters or not) where a
/// grid of k rows may end, reading them from the first as grids and blank
/// lines: after a row of only delimiters when one may end there (such a row
/// may also be a grid's empty first row, so a place right after it is the
/// safer cut).
fn last_grid_end(empty: &[bool], k: usize) -> usize {
    let mut ends = vec![false; empty.len() + 1];
    ends[0] = true;
    for i in 0..empty.len() {
        if ends[i] {
            ends[i + 1] |= empty[i];
            if i + k <= empty.len() {
                ends[i + k] = true;
            }
        }
    }
    let after_blank = (1..=empty.len()).rev().find(|&i| ends[i] && empty[i - 1]);
    after_blank.or_else(|| ends.iter().rposition(|&end| end)).unwrap_or(0)
}

/// Whether rows, each a row of only delimiters or not, make whole grids of
/// k rows, with rows of only delimiters between grids as blank lines. When
/// `more` rows may follow the list, a grid that runs past its end may be
/// whole.
pub(super) fn whole_grids(empty: &[bool], k: usize, more: bool) -> bool {
    whole_grids_then(empty, k, |_| more)
}

/// [`whole_grids`], where a grid that runs past the end of the rows, r of
/// its rows among them, is whole when `tail(r)` says so (more rows may
/// follow, or the grid goes on past a row written wrong). `tail` is asked
/// only of the grids the rows before them leave under way.
pub(super) fn whole_grids_then(empty: &[bool], k: usize, mut tail: impl FnMut(usize) -> bool) -> bool {
    let end = empty.len();
    // Where a grid may start, reading from the first row.
    let mut start = vec![false; end + 1];
    start[0] = true;
    for i in 0..end {
        if start[i] {
            start[i + 1] |= empty[i];
            if i + k <= end {
                start[i + k] = true;
            }
        }
    }
    start[end] || ((end + 1).saturating_sub(k)..end).any(|i| start[i] && tail(end - i))
}

/// A row label without the number that ends it: `Row 1` and `R1` give `Row`
/// and `R`, rows of one kind.
fn label_stem(label: &str) -> &str {
    label.trim_end_matches(|c: char| c.is_ascii_digit() || c.is_whitespace())
}

/// Whether the label `next`, `rows` rows below the label `first`, labels a
/// row of its kind: the same words before a number (`Row 1`, `Row 7`; `R1`,
/// `R2`), or before letters that count the rows from `A` (`A` … `I`, or
/// `J` after `H` as SudokuWiki skips `I`; `Row A` …, `a` …): letters that
/// do not (`n`, `x`, `y`) are a table's, not a grid's.
fn counts_on(first: &str, next: &str, rows: usize) -> bool {
    match (lettered(first), lettered(next)) {
        // Letters count from `A`, as `counts_exactly` counts them (a label
        // that ends in a letter ends in no number: no way back here).
        (Some((_, x)), Some(_)) => matches!(x, b'A' | b'a') && counts_exactly(first, next, rows),
        (None, None) => label_stem(first) == label_stem(next),
        _ => false,
    }
}

/// The number that ends a label (`Row 7`, `R7`, `7`), if any.
fn label_number(label: &str) -> Option<usize> {
    label.trim_end()[label_stem(label).len()..].trim().parse().ok()
}

/// Whether the label `next` is exactly the one `rows` rows below `first` in
/// a grid whose labels count its rows: numbers or letters one more each row
/// (`Row 1`, `Row 2`, …; `A`, `B`, …, and from `A` also `J` after `H`, as
/// SudokuWiki skips `I`). Labels of the kind with no number or letter to
/// count by are taken as [`counts_on`] takes them.
fn counts_exactly(first: &str, next: &str, rows: usize) -> bool {
    match (label_number(first), label_number(next), lettered(first), lettered(next)) {
        (Some(a), Some(b), ..) => label_stem(first) == label_stem(next) && b == a + rows,
        // SudokuWiki's rows run A to H, then J.
        (.., Some((a, x)), Some((b, y))) => {
            let (x, y) = (usize::from(x), usize::from(y));
            a == b && (y == x + rows || (matches!(x as u8, b'A' | b'a') && rows >= 8 && y == x + rows + 1))
        }
        _ => counts_on(first, next, rows),
    }
}

/// The label `rows` rows below `first`, as [`counts_exactly`] counts, for
/// messages; `None` past the letters.
fn label_after(first: &str, rows: usize) -> Option<String> {
    let stem = label_stem(first);
    match label_number(first) {
        Some(number) => {
            Some(format!("{}{}", &first[..first.len() - first[stem.len()..].trim_start().len()], number + rows))
        }
        None => {
            let (_, letter) = lettered(first)?;
            let next = u32::from(letter).checked_add(u32::try_from(rows).ok()?)?;
            let next = char::from_u32(next).filter(|c| c.is_ascii_alphabetic())?;
            Some(format!("{}{next}", &first.trim_end()[..first.trim_end().len() - 1]))
        }
    }
}

/// The first row among a grid's `rows` whose label, of `first`'s kind,
/// does not go on from `first`'s in turn, where the labels count the rows:
/// numbers from 1 (over rows `R1` … `R9`, `R0` is a title) or letters, and
/// some label among the rows counts on from `first` (`1:` on each row of
/// puzzle 1 numbers the puzzle; `n`, `x`, `y` label a table). A label of another
/// kind (`A` after `9` in a 16×16) and the row after the grid are left to
/// the grid they open.
fn out_of_turn(first: &str, labels: &[Option<String>], rows: usize) -> Option<usize> {
    let within = labels.len().min(rows);
    // Rows that stop well short of a grid tell no grid (`a:`, `c:` above a
    // puzzle are titles).
    let from_first = labels.len() + 1 >= rows
        && match (label_number(first), lettered(first)) {
            (Some(number), _) => number >= 1,
            (None, letter) => letter.is_some(),
        };
    let counts_on = |label: &str| (1..rows).any(|j| counts_exactly(first, label, j));
    // A lone row before a grid's first (`Row 9` typed twice after its
    // grid, above the next `Row 1`) opens no grid of its own either.
    let opens_later = !opens_grid(first, first) && labels[1..within].iter().flatten().any(|l| opens_grid(first, l));
    let counts = opens_later || labels[1..within].iter().flatten().any(|label| counts_on(label));
    if !from_first || !counts {
        return None;
    }
    (1..within).find(|&i| {
        labels[i].as_deref().is_some_and(|label| same_kind(first, label) && !counts_exactly(first, label, i))
    })
}

/// Whether two labels are of one kind that counts rows: numbers after the
/// same words (`Row 1`, `Row 7`), or letters after them (`A`, `C`).
fn same_kind(first: &str, label: &str) -> bool {
    match (label_number(first), label_number(label), lettered(first), lettered(label)) {
        (Some(_), Some(_), ..) => label_stem(first) == label_stem(label),
        (None, None, Some((a, _)), Some((b, _))) => a == b,
        _ => false,
    }
}

/// Whether `label` opens a grid of rows labelled as `first` is: it is the
/// first of its kind (`Row 1`, `A`; `R0` where `first` is), wherever
/// `first` stands.
fn opens_grid(first: &str, label: &str) -> bool {
    match (label_number(first), label_number(label), lettered(first), lettered(label)) {
        (Some(a), Some(b), ..) => label_stem(first) == label_stem(label) && b == a.min(1),
        (None, None, Some((a, _)), Some((b, y))) => a == b && matches!(y, b'A' | b'a'),
        _ => false,
    }
}

/// What [`PuzzleReader::first_row_of_block`] makes of a row of only
/// delimiters.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum BlockStart {
    /// No grid's first row: a blank line.
    No,
    /// A grid's empty first row.
    Yes,
    /// The empty first row of a grid with a row too many
    /// (`heads_grid_over_stray_row`): read as n + 1 rows, the grid is one
    /// record.
    OverStrayRow,
}

/// What [`PuzzleReader::labelled_block`] makes of a labelled row.
pub(super) enum Labelled {
    /// No grid's first row: a puzzle on one line, or a title.
    No,
    /// A grid's first row: its rows are in the pending lines, unlabelled.
    Block,
    /// A grid's first row whose rows' labels do not count on: the grid's
    /// record, one invalid entry that names the first row out of turn (its
    /// lines, up to the next grid, are dropped from the pending lines).
    OutOfTurn(Entry),
}

/// The words before a letter alone at the end of a label, and the letter.
fn lettered(label: &str) -> Option<(&str, u8)> {
    let label = label.trim_end();
    let (at, letter) = label.char_indices().next_back().filter(|(_, c)| c.is_ascii_alphabetic())?;
    let stem = &label[..at];
    (stem.is_empty() || stem.ends_with([' ', '-', '_', '.'])).then_some((stem.trim_end(), letter as u8))
}

/// Whether a label says its line is a row: `Row 1`, `R1`, `Line 1`.
fn names_a_row(label: &str) -> bool {
    let stem = label_stem(label).trim_end_matches(['.', '-', '_', ' ']);
    ["row", "r", "line", "l"].iter().any(|word| stem.eq_ignore_ascii_case(word))
}

/// A labelled row as a row of its cells, its label dropped (and the line
/// it would title: see [`LineKind::LabelledRow`]).
fn unlabel(kind: &mut LineKind) {
    if let LineKind::LabelledRow(_, cells) = kind {
        *kind = LineKind::Cells(Cells { label: None, ..std::mem::take(cells) });
    }
}

impl<R: BufRead> PuzzleReader<'_, R> {
    /// Whether a row of only delimiters, of k fields, is the empty first row
    /// of a grid rather than a blank line: k − 1 rows of k cells follow it
    /// (rules skipped, rows of only delimiters counted), then no such row,
    /// or one of only delimiters (the next grid's empty first row); and the
    /// rows after it make no whole grids without it. When they do too (`S`
    /// for such a row: `S`, k − 1 rows, `S` is a grid with an empty first
    /// row or one with an empty last row), the reading whose givens
    /// propagation refutes is not taken; when neither or both are, a blank
    /// line in a file that parts its grids with such rows, and else a row.
    /// Fewer rows, then one written wrong (a cell short or long) that the
    /// rows after it make whole: the first row of that grid too. Exactly
    /// k rows: the first row of a grid with a row too many, where
    /// [`Self::heads_grid_over_stray_row`] tells so.
    pub(super) fn first_row_of_block(&mut self, line: usize, first: &Cells) -> BlockStart {
        let k = first.tokens.len();
        if !(2..=MAX_SIZE).contains(&k) {
            return BlockStart::No;
        }
        // The rows after it, rules skipped, up to a window of three grids:
        // whether each is a row of only delimiters.
        let window = 3 * k;
        let (mut empty, mut lines) = (Vec::new(), 0);
        while empty.len() < window {
            let header_below = self.labelled_row_at(lines + 1);
            match self.peek(lines) {
                Some((_, LineKind::Rule)) => {}
                // Another delimiter: rows of another grid (`;;;` above pasted tabs).
                Some((_, LineKind::Cells(c) | LineKind::Separator(c))) if c.delimiter != first.delimiter => break,
                // Numbered columns with a labelled row below: another grid's header.
                Some((_, LineKind::Cells(c))) if c.columns.is_some() && header_below => break,
                Some((_, LineKind::Separator(c))) if c.tokens.len() == k && !c.field => empty.push(true),
                Some((_, LineKind::Cells(c))) if c.tokens.len() == k && !c.field => empty.push(false),
                _ => break,
            }
            lines += 1;
        }
        // Neither reading ruled out: a blank line in a file whose grids such
        // rows part, unless a blank line comes just before it (then it is
        // the next grid's empty first row).
        let parting = self.parted && self.blank + 1 != line;
        // k − 1 rows, then the end of the rows or a row of only delimiters.
        let short = empty.len() == k - 1 || empty.get(k - 1) == Some(&true);
        let more = empty.len() == window;
        if !short {
            // Fewer, then a row written wrong: the first row of its grid,
            // unless the row after it may be that too.
            let heads = (self.heads_damaged_grid(k, empty.len() + 1, lines)
                && !(parting && empty.first() == Some(&true) && self.heads_damaged_grid(k, empty.len(), lines)))
                || self.heads_grids_below(line, first, &empty, lines, more)
                || self.heads_run_with_row_typed_twice(line, first, &empty, lines);
            return match heads {
                true => BlockStart::Yes,
                false if self.heads_grid_over_stray_row(line, first, &empty, lines) => BlockStart::OverStrayRow,
                false => BlockStart::No,
            };
        }
        // Without it, the rows may stop at a grid's row written wrong.
        if !whole_grids_then(&empty, k, |r| more || self.damaged_row_ahead(k, r, lines)) {
            return BlockStart::Yes;
        }
        // Both readings: the grid it starts, and the grid of the k rows
        // after it. The one that reads worse (refuted, or improper where
        // the other has exactly one solution) is not taken. Where they read
        // as well, neither can be told to be the puzzle written: taken as
        // the first row, the row of only delimiters after its grid is then
        // a row too many (`separator_ends_grid`), and the grid is reported.
        let rows = self.rows_from(line, first, lines);
        let as_row = self.wrongness(&rows[..k], k, GUESS_TIME);
        let heads = match rows.len() == k {
            true => as_row < 2 && !parting,
            false => match as_row.cmp(&self.wrongness(&rows[1..=k], k, GUESS_TIME)) {
                Ordering::Less => true,
                Ordering::Greater => false,
                Ordering::Equal => !parting,
            },
        };
        match heads {
            true => BlockStart::Yes,
            false => BlockStart::No,
        }
    }

    /// Whether a row of only delimiters, of k fields, heads a grid though
    /// a k-th row (not one of only delimiters) follows its k − 1 (`empty`
    /// are the rows after it, as in [`Self::first_row_of_block`], that
    /// end `lines` lines on, `more` of them past the window): a grid's
    /// empty first row right above the next grid's first row. With it as
    /// that row the rows after it make whole grids, and its grid reads
    /// better than the grid of the k rows after it (propagation refutes
    /// fewer, then more have exactly one solution: the k rows after it are
    /// the next grid's first row under its grid's last k − 1); or as well,
    /// and the rows make no whole grids without it. Where the rows after
    /// its grid are a row short or long of whole grids (a later grid with a
    /// row lost or stray), a grid of 9×9 or more (in smaller ones a reading
    /// has one solution by chance) must have exactly one solution and the
    /// k rows after it not: read as a blank line, it made a puzzle nobody
    /// wrote of the grid's last k − 1 rows and the next one's first, called
    /// unsolvable, and shifted every grid after it.
    fn heads_grids_below(&mut self, line: usize, first: &Cells, empty: &[bool], lines: usize, more: bool) -> bool {
        let k = first.tokens.len();
        if empty.len() < k || empty[k - 1] {
            return false;
        }
        let tail = |reader: &mut Self, r: usize| more || reader.damaged_row_ahead(k, r, lines);
        let whole = whole_grids_then(&empty[k - 1..], k, |r| tail(self, r));
        let odd = (empty.len() + 1) % k;
        if !whole && (more || k < 9 || (odd != 1 && odd != k - 1)) {
            return false;
        }
        let rows = self.rows_from(line, first, lines);
        let as_row = self.wrongness(&rows[..k], k, GUESS_TIME);
        let as_blank = self.wrongness(&rows[1..=k], k, GUESS_TIME);
        match whole {
            true => as_row < as_blank || (as_row == as_blank && !whole_grids_then(empty, k, |r| tail(self, r))),
            false => as_row == 0 && as_blank > 0,
        }
    }

    /// Whether a row of only delimiters heads a run of grids back to back
    /// (`empty` are the rows after it, as in [`Self::first_row_of_block`],
    /// within the next `lines` lines) whose first grid has a row typed
    /// twice among the k rows after it: that grid has a row too many, and
    /// the row of delimiters is its empty first row, framed with the run's
    /// other rows (rule 5). Read as a blank line, the grid was read with
    /// the copy, and called unsolvable.
    fn heads_run_with_row_typed_twice(&mut self, line: usize, first: &Cells, empty: &[bool], lines: usize) -> bool {
        let k = first.tokens.len();
        empty.len() > k && !empty[k] && typed_twice(&self.rows_from(line, first, lines)).contains(&true)
    }

    /// Whether a row of only delimiters that no whole grid comes right
    /// before is the empty first row of a grid with a row too many, rather
    /// than a blank line above the grid of the k rows after it, the last of
    /// their width (`empty` are the rows after it, as in
    /// [`Self::first_row_of_block`], within the next `lines` lines): where
    /// [`Self::row_too_many`] tells so (right after a whole grid, only where
    /// a reading with it is better). The grid is then one record
    /// ([`BlockStart::OverStrayRow`]). Read as a blank line, such rows were a
    /// puzzle nobody wrote, the rows above the stray row one row out of
    /// place, and it was solved or called unsolvable.
    fn heads_grid_over_stray_row(&mut self, line: usize, first: &Cells, empty: &[bool], lines: usize) -> bool {
        // Only where the k rows are all that follow (no more rows of their
        // width): with more rows back to back, it is as likely a blank line
        // of a file that parts its grids so, and taken as a row it would
        // frame every grid after it around that guess. Or where a row of
        // only delimiters comes right after them (the grid ends there either
        // way), and one of them is typed twice, or the grid is 9×9 or more
        // (in smaller ones a reading with a row out has one solution by
        // chance, as in [`Self::shows_shift`]).
        let k = first.tokens.len();
        if empty.len() != k && empty.get(k) != Some(&true) {
            return false;
        }
        let rows = self.rows_from(line, first, lines);
        if empty.len() != k && k < 9 && !typed_twice(&rows).contains(&true) {
            return false;
        }
        let after_grid = self.after_grids.is_some_and(|(at, _)| at == line);
        self.row_too_many(&rows, k, 0, after_grid)
    }

    /// Whether the row of only delimiters ahead, right after the whole
    /// grid `grid` of n rows, is that grid's last row, the grid with a row
    /// too many, rather than a blank line after it (what a spreadsheet
    /// saves for an empty row below its grid): where [`Self::row_too_many`]
    /// tells so (in a file whose grids such rows have parted, only where the
    /// n rows read worse), and only where no more rows of its width follow
    /// it. Read as a blank line, the grid was a puzzle nobody wrote (an
    /// empty row typed twice in a grid whose last row is empty), and it was
    /// solved or called unsolvable.
    pub(super) fn separator_ends_grid(&mut self, grid: &[(usize, Vec<Token>)], n: usize) -> bool {
        let row_of_width = |kind: Option<&(usize, LineKind)>| {
            matches!(kind, Some((_, LineKind::Cells(c) | LineKind::Separator(c) | LineKind::LabelledRow(_, c)))
                if c.tokens.len() == n)
        };
        if row_of_width(self.peek(1)) {
            return false;
        }
        let Some((line, LineKind::Separator(c))) = self.peek(0) else { return false };
        if c.tokens.len() != n || c.field {
            return false;
        }
        let last = (*line, c.tokens.clone());
        let rows: Vec<_> = grid.iter().cloned().chain(std::iter::once(last)).collect();
        let parted = self.parted;
        self.row_too_many(&rows, n, n, parted)
    }

    /// Whether the k + 1 `rows`, row `odd` (0-based: the first or the last)
    /// a row of only delimiters, are a grid with a row too many rather than
    /// that row a blank line beside the grid of the other k: with it as a
    /// row they read better with another row left out
    /// ([`Self::with_another_row_out`]: a stray row that makes the k rows
    /// refuted, or a row typed twice), or as well with another empty row
    /// left out ([`Self::as_well_with_empty_row_out`]), unless only `better`
    /// counts: beside grids that such rows part, it is as likely a blank
    /// line, and there only a reading that is better tells.
    fn row_too_many(&mut self, rows: &[(usize, Vec<Token>)], k: usize, odd: usize, better: bool) -> bool {
        let without = if odd == 0 { &rows[1..] } else { &rows[..k] };
        let displaced = self.wrongness(without, k, GUESS_TIME);
        match self.with_another_row_out(rows, k, odd, displaced, false) {
            Ordering::Less => true,
            Ordering::Greater => false,
            Ordering::Equal => !better && self.as_well_with_empty_row_out(rows, k, odd, displaced),
        }
    }

    /// Whether the k + 1 `rows`, with a row of only delimiters other than
    /// row `odd` left out, read as well as the k rows without row `odd`,
    /// which read as `displaced` ([`Self::wrongness`]): exactly one solution
    /// where they have one too; or, where they are improper, that row typed
    /// twice (a row of only delimiters beside it) and the reading not
    /// refuted. Either may then be the puzzle written (an empty row put in
    /// twice, or by mistake, in a grid whose first or last row is empty; or
    /// a row of only delimiters beside a grid with an empty row, which
    /// reads either way), and printing one's answer may answer a puzzle
    /// nobody wrote. Only rows of only delimiters: a row of values left out
    /// leaves fewer givens, and a puzzle keeps its solutions without them
    /// (no evidence); and a grid that writes its empty cells (`0,0,0,0`)
    /// does not write its empty row as the spreadsheet's padding. Only
    /// typed twice against an improper grid: a lone empty row left out
    /// leaves a grid that propagation does not refute in most small ones.
    fn as_well_with_empty_row_out(
        &mut self,
        rows: &[(usize, Vec<Token>)],
        k: usize,
        odd: usize,
        displaced: usize,
    ) -> bool {
        let deadline = Instant::now() + FRAMING_TIME;
        let delimiters_only = |i: usize| {
            rows[i]
                .1
                .iter()
                .all(|t| matches!(t.symbol, Symbol::Empty) && matches!(&t.text, TokenText::Word(w) if w.is_empty()))
        };
        let empty = |i: usize| rows[i].1.iter().all(|t| matches!(t.symbol, Symbol::Empty));
        // Row j, with a row of values between it and row `odd`: with only
        // empty rows between, left out it leaves the same grid as row `odd`
        // does.
        let apart = |j: usize| (j.min(odd)..=j.max(odd)).any(|i| !empty(i));
        let twice = |j: usize| {
            [j.checked_sub(1), Some(j + 1)]
                .into_iter()
                .flatten()
                .any(|i| i < rows.len() && i != odd && delimiters_only(i))
        };
        let candidates: Vec<usize> = (0..rows.len())
            .filter(|&j| j != odd && delimiters_only(j) && apart(j) && (displaced == 0 || twice(j)))
            .collect();
        candidates.into_iter().any(|j| {
            let mut kept = rows.to_vec();
            kept.remove(j);
            match displaced {
                0 => {
                    let time = GUESS_TIME.min(time_left(deadline));
                    !time.is_zero() && self.told_wrongness(&kept, k, time) == Some(0)
                }
                // Against an improper grid, a reading as good is one that
                // propagation does not refute: no search needed.
                _ => self.told_wrongness(&kept, k, Duration::ZERO) == Some(1),
            }
        })
    }

    /// The row of only delimiters `first`, at `line`, and the first k rows
    /// after it within the next `lines` lines (rules skipped).
    fn rows_from(&mut self, line: usize, first: &Cells, lines: usize) -> Vec<(usize, Vec<Token>)> {
        let below = self.pending.iter().take(lines).filter_map(|(at, kind)| match kind {
            LineKind::Cells(c) | LineKind::Separator(c) => Some((*at, c.tokens.clone())),
            _ => None,
        });
        std::iter::once((line, first.tokens.clone())).chain(below.take(first.tokens.len())).collect()
    }

    /// The grid under a header of k numbered or named columns: k rows after
    /// it (rules skipped), each its label and k cells, or k cells and an
    /// empty field (a delimiter after the last cell); one of them may be a
    /// few cells short or long, between rows of the grid or last, for the
    /// block to name. Their labels (and those empty fields) are dropped, and
    /// the first row is returned, at its line, to start the block; `None`
    /// (the header a title) when the rows below are no such grid.
    pub(super) fn indexed_block(&mut self, k: usize) -> Option<(usize, Vec<Token>)> {
        let (lines, exact, trailing, odd) = self.indexed_rows(k, 0)?;
        for (at, (_, kind)) in self.pending.iter_mut().take(lines).enumerate() {
            if let LineKind::Cells(c) | LineKind::Separator(c) = kind {
                c.tokens.remove(0);
                c.uncut();
            }
            unlabel(kind);
            // The row written wrong loses its last field only if it is empty.
            if let (LineKind::Cells(c) | LineKind::Separator(c), true) = (kind, trailing && !exact) {
                if odd != Some(at) || c.ends_in_empty_field() {
                    c.tokens.pop();
                }
            }
        }
        while matches!(self.peek(0), Some((_, LineKind::Rule))) {
            self.next_line();
        }
        self.labelled = true;
        match self.next_line() {
            Some((line, LineKind::Cells(c) | LineKind::Separator(c))) => Some((line, c.tokens)),
            _ => unreachable!("the first row was just read"),
        }
    }

    /// The rows of the grid under a header of k columns, from the line
    /// `from` lines on, as [`Self::indexed_block`] takes them: how many
    /// lines on the line after its last row is, whether every row has
    /// exactly k cells after its label, whether every row (but the one
    /// written wrong) ends in an empty field after them, and that row's
    /// place. `None` when the lines there are no such grid.
    fn indexed_rows(&mut self, k: usize, from: usize) -> Option<(usize, bool, bool, Option<usize>)> {
        // The cells of a row after its label, and whether its last is an empty field.
        fn cells_of(kind: &LineKind) -> Option<(usize, &Cells)> {
            match kind {
                LineKind::LabelledRow(_, c) => Some((c.tokens.len(), c)),
                LineKind::Cells(c) | LineKind::Separator(c) if !c.field && c.label.is_none() => {
                    Some(((c.tokens.len() + usize::from(c.cut.is_some())).checked_sub(1)?, c))
                }
                _ => None,
            }
        }
        let ends_empty = |c: &Cells| c.cut.is_some() || c.ends_in_empty_field();
        let fits =
            |kind: &LineKind| cells_of(kind).is_some_and(|(count, c)| count == k || count == k + 1 && ends_empty(c));
        let (mut rows, mut lines, mut exact, mut trailing) = (0, from, true, true);
        // The row written wrong, at its line.
        let mut odd = None;
        while rows < k {
            match self.peek(lines) {
                Some((_, LineKind::Rule)) => {}
                Some((_, kind)) => {
                    let (count, c) = cells_of(kind)?;
                    let (exact_here, trailing_here) = (count == k, count == k + 1 && ends_empty(c));
                    if (exact && exact_here) || (trailing && trailing_here) {
                        (exact, trailing) = (exact && exact_here, trailing && trailing_here);
                    } else if odd.is_none() && count.abs_diff(k) <= (k / 3).max(2) {
                        let after = self.past_rules(lines + 1);
                        if rows + 1 < k && !self.peek(after).is_some_and(|(_, kind)| fits(kind)) {
                            return None;
                        }
                        odd = Some(lines);
                    } else {
                        return None;
                    }
                    rows += 1;
                }
                None => return None,
            }
            lines += 1;
        }
        Some((lines, exact, trailing, odd))
    }

    /// The line of the next line but rules (those are passed) when it is a
    /// header of k numbered columns (`,1,2,…,8`) over a grid whose k rows
    /// start with their labels in order (`1,…`, `2,…` or `A,…`, `B,…`, or
    /// `Row 1,…`): another grid's header, never a row of a grid of k + 1
    /// cells above it (a 9×9 right above a labelled 8×8), though it has as
    /// many fields; or when it is the column header of a grid with
    /// coordinates ([`PuzzleReader::coordinate_header_ahead`]).
    pub(super) fn grid_header_ahead(&mut self) -> Option<usize> {
        while matches!(self.peek(0), Some((_, LineKind::Rule))) {
            self.next_line();
        }
        let (line, k) = match self.peek(0) {
            Some((line, LineKind::Cells(c))) => (*line, c.columns),
            _ => return None,
        };
        let Some(k) = k.map(usize::from) else {
            return self.coordinate_header_ahead().then_some(line);
        };
        let (mut rows, mut ahead) = (0, 1);
        while rows < k {
            let labelled = match self.peek(ahead) {
                Some((_, LineKind::Rule)) => None,
                Some((_, LineKind::LabelledRow(..))) => Some(true),
                Some((_, LineKind::Cells(c) | LineKind::Separator(c))) => Some(c.tokens.first().is_some_and(|t| {
                    let label = t.text.to_string();
                    let mut chars = label.trim().chars();
                    label.trim().parse() == Ok(rows + 1)
                        || matches!((chars.next(), chars.next()), (Some(c), None) if super::nth_letter(c, rows))
                })),
                _ => Some(false),
            };
            match labelled {
                Some(false) => return None,
                Some(true) => rows += 1,
                None => {}
            }
            ahead += 1;
        }
        self.indexed_rows(k, 1).map(|_| line)
    }

    /// Whether the labelled row `first` and the labelled rows after it make
    /// a grid: k of k cells (rules between them skipped, a row of only
    /// delimiters an empty row), or k − 1 of them that each end in an empty
    /// field (a delimiter after the last cell: see
    /// [`PuzzleReader::drop_trailing_field`]). Their labels are dropped (and
    /// those empty fields), so that they read as the block's rows. `first`
    /// is a row with its `label`, or (`None`) a row of only delimiters, the
    /// grid's empty first row when no more labelled rows of its length
    /// follow the grid (else it is a blank line before a grid); `line` is
    /// its line.
    pub(super) fn labelled_block(&mut self, line: usize, first: &mut Cells, label: Option<&str>) -> Labelled {
        let exact = label.is_none();
        let k = first.tokens.len();
        // Past the largest side (and a delimiter after it), no grid's row.
        if k > MAX_SIZE + 1 {
            return Labelled::No;
        }
        // Labelled lines of m² cells may be m×m puzzles one per line
        // (`Puzzle 1: 4 . 3 . …`), as unlabelled ones may: the same rules
        // tell them from a grid's rows (`small` is m, see `starts_block`),
        // except that labels that say they are rows (`Row 1`, `R1`) make
        // them rows whatever values they hold, unless they repeat one.
        // A line that repeats a value is no row, whatever its label says.
        let maybe_puzzles = label.is_some_and(|label| !names_a_row(label));
        let small = label.and_then(|_| self.small_side(k));
        if is_small_puzzle(&first.tokens, small) || (maybe_puzzles && self.is_puzzle_of_run(k, first)) {
            return Labelled::No;
        }
        // The grid's first row written wrong (`A: 5 3 . . 7 . . . . .` over
        // rows of 9): its block names it, as it names an unlabelled one.
        if let Some(lines) = label.and_then(|label| self.rows_under_damaged_first(first, label)) {
            for (_, kind) in self.pending.iter_mut().take(lines) {
                unlabel(kind);
            }
            self.labelled = true;
            return Labelled::Block;
        }
        // The stretch of labelled rows and rows of only delimiters of k
        // cells, rules skipped: whether each is one of only delimiters, and
        // the lines up to its end; and each one's values.
        let window = (3 * k).max(1024);
        // A labelled row is a row, never a blank line; a row of only delimiters (`exact`) may be either.
        let (mut empty, mut ends, mut lines) = (vec![exact], vec![0], 0);
        // Each row's label (none for a row of only delimiters).
        let mut labels: Vec<Option<String>> = vec![label.map(String::from)];
        let signs_of = |c: &Cells| small.map(|m| RowSigns::of(&c.tokens, m)).unwrap_or_default();
        let mut signs = vec![signs_of(first)];
        // Whether the first labelled row after it is of its kind.
        let mut next_of_kind = None;
        let mut all_end_empty = first.ends_in_empty_field();
        while empty.len() < window {
            // Looked at only after a labelled row: never past a blank line
            // (a script waits for the answer before it writes the next line).
            let row_after = matches!(self.peek(lines), Some((_, LineKind::LabelledRow(..))))
                && self.labelled_row_ahead(lines + 1, k);
            match self.peek(lines) {
                Some((_, LineKind::Rule)) => {}
                // Another delimiter: another table's (`Printed 2024;01;15` above tabs).
                Some((_, LineKind::LabelledRow(_, c) | LineKind::Separator(c))) if c.delimiter != first.delimiter => {
                    break
                }
                Some((_, LineKind::LabelledRow(next, c)))
                    if c.tokens.len() == k && !is_small_puzzle(&c.tokens, small) =>
                {
                    let row = empty.len();
                    next_of_kind.get_or_insert_with(|| label.is_some_and(|label| counts_on(label, next, row)));
                    all_end_empty &= c.ends_in_empty_field();
                    labels.push(Some(next.clone()));
                    empty.push(false);
                    signs.push(signs_of(c));
                    ends.push(lines + 1);
                }
                Some((_, LineKind::Separator(c))) if c.tokens.len() == k => {
                    labels.push(None);
                    empty.push(true);
                    signs.push(RowSigns::default());
                    ends.push(lines + 1);
                }
                // A row of its kind a few cells short or long (`Row 5: . .
                // 8 . 4 .`) between rows of k, or last of a grid: a row
                // written wrong, which the block names.
                Some((_, LineKind::LabelledRow(next, c)))
                    if label.is_some_and(|label| counts_exactly(label, next, empty.len() % k))
                        && c.tokens.len().abs_diff(k) <= (k / 3).max(2)
                        && !is_whole_count(c.tokens.len())
                        && ((empty.len() + 1) % k == 0 || row_after) =>
                {
                    all_end_empty &= c.ends_in_empty_field();
                    labels.push(Some(next.clone()));
                    empty.push(false);
                    signs.push(signs_of(c));
                    ends.push(lines + 1);
                }
                _ => break,
            }
            lines += 1;
        }
        let more = empty.len() == window;
        // Each row ending in an empty field, whole grids of k − 1 rows: a
        // delimiter after the last cell (rows of only delimiters between
        // grids blank lines), when k − 1 makes a grid.
        let trailing = k > 2
            && all_end_empty
            && empty.len() >= k - 1
            && whole_grids(&empty, k - 1, more)
            && self.spec.geometry_for(k - 1).is_ok();
        let rows = if trailing { k - 1 } else { k };
        // The rows after it make whole grids and not with it, and their
        // labels are of another kind: a title above them (`Total;;;;` above
        // `R1;1;;;`; `R1` above `R2` is their row).
        let other_kind = label.is_some() && next_of_kind != Some(true);
        // Where lines of k = m² cells may be m×m puzzles, they are rows
        // only when one holds a value past m, and not when they hold k
        // givens of 1..=m or more (those make no k×k puzzle).
        let mut taken = RowSigns::default();
        signs.iter().take(rows).for_each(|s| taken.add(*s));
        // In a run of them, a value twice makes them puzzles too, and a
        // line with a value past m is one written wrong unless whole
        // grids follow.
        let in_run = maybe_puzzles && self.line_mode == Some((k, first.delimiter));
        let later_forced = signs.iter().take(rows).skip(1).any(|s| s.too_big);
        let puzzles =
            maybe_puzzles && small.is_some() && (!taken.too_big || (in_run && (taken.repeats || !later_forced)));
        // Two labelled rows of a kind or more, too few for a grid: a grid
        // cut short, one invalid record as unlabelled rows make, never
        // titles that leave no record (`R1,…`, `R2,…`, `R3,…` of a 4×4).
        let cut_short = label.is_some() && !other_kind && !puzzles && (2..rows).contains(&empty.len());
        // Rows whose labels count them (`Row 1` … `Row 9`, `A` … `I`) say
        // where each grid starts: one whose labels do not go on in turn (a
        // row lost, typed twice, or another's) is one invalid record up to
        // the next grid's first label, never a grid of the wrong rows.
        let of_kind = |l: &Option<String>| label.zip(l.as_deref()).is_some_and(|(a, b)| same_kind(a, b));
        if let (Some(first_label), true, false) = (label, labels.get(1).is_some_and(of_kind), puzzles) {
            if let Some(wrong) = out_of_turn(first_label, &labels, rows) {
                let opens = |l: &Option<String>| l.as_deref().is_some_and(|l| opens_grid(first_label, l));
                let next_opening =
                    |from: usize| (from..labels.len()).find(|&j| opens(&labels[j])).unwrap_or(labels.len());
                let mut end = next_opening(1);
                // A lone row that opens no whole grid (`Row 1` put last) is
                // this grid's, not a title that names nothing.
                // (Last of the stretch, only where no labelled row follows
                // it: one a few cells short or long shows a grid under way.)
                let after = ends[labels.len() - 1];
                let stretch_ends = !matches!(self.peek(after), Some((_, LineKind::LabelledRow(..))));
                while end < labels.len() && next_opening(end + 1) == end + 1 && (end + 1 < labels.len() || stretch_ends)
                {
                    end += 1;
                }
                // The first row labelled twice (`Row 1`, `Row 1`, `Row 2`,
                // …) with other cells: which of the two is the grid's cannot
                // be told, so the grid after it is not read either.
                if end == 1 && opens_grid(first_label, first_label) && !self.same_cells_at(ends[1] - 1, first) {
                    end = next_opening(2);
                }
                let at = self.pending[ends[wrong] - 1].0;
                self.pending.drain(..ends[end - 1]);
                let kind = ParseErrorKind::RowOutOfTurn {
                    first: line,
                    label: labels[wrong].clone().unwrap_or_default(),
                    expected: label_after(first_label, wrong)
                        .unwrap_or_else(|| format!("{wrong} rows below '{first_label}'")),
                };
                let error = self.error(at, None, kind);
                return Labelled::OutOfTurn(self.entry(line, None, Err(error)));
            }
        }
        if (empty.len() < rows && !cut_short)
            || (other_kind && !whole_grids(&empty, rows, more) && whole_grids(&empty[1..], rows, more))
            || (puzzles && (taken.givens >= k || taken.repeats))
        {
            return Labelled::No;
        }
        let lines = ends[rows.min(empty.len()) - 1];
        if exact && self.labelled_row_ahead(lines, k) {
            return Labelled::No;
        }
        for (_, kind) in self.pending.iter_mut().take(lines) {
            unlabel(kind);
            if let (LineKind::Cells(c) | LineKind::Separator(c), true) = (kind, trailing) {
                c.tokens.pop();
            }
        }
        if trailing {
            first.tokens.pop();
        }
        self.labelled = true;
        Labelled::Block
    }

    /// Whether the pending line `at` is a row of the same cells as `row`.
    fn same_cells_at(&self, at: usize, row: &Cells) -> bool {
        let symbols = |c: &Cells| c.tokens.iter().map(|t| t.symbol).collect::<Vec<_>>();
        match self.pending.get(at) {
            Some((_, LineKind::LabelledRow(_, c) | LineKind::Cells(c))) => symbols(c) == symbols(row),
            _ => false,
        }
    }

    /// The lines that hold the rest of a grid whose first row, `first`
    /// labelled `label`, is a few cells short or long: the labelled rows of
    /// its kind after it (rules skipped) are of another length m, and with
    /// it make whole grids of m rows (a grid of m − 1 rows, or more grids
    /// after it). `None` where the rows after it are whole grids alone
    /// (`R0` over `R1` … `R9`: a title) or where `first` holds a whole
    /// puzzle.
    fn rows_under_damaged_first(&mut self, first: &Cells, label: &str) -> Option<usize> {
        let k = first.tokens.len();
        if is_whole_count(k) {
            return None;
        }
        let (mut m, mut rows, mut lines, mut grid_end) = (0, 0, 0, 0);
        while rows < (3 * m).max(1024) {
            match self.peek(lines) {
                Some((_, LineKind::Rule)) => {}
                Some((_, LineKind::LabelledRow(next, c)))
                    if counts_on(label, next, (rows + 1) % m.max(2))
                        && c.delimiter == first.delimiter
                        && (rows == 0 || c.tokens.len() == m) =>
                {
                    m = c.tokens.len();
                    // Rows of its own length: no row of it is written wrong.
                    if m == k || m.abs_diff(k) > (m / 3).max(2) {
                        return None;
                    }
                    rows += 1;
                    if rows + 1 == m {
                        grid_end = lines + 1;
                    }
                }
                _ => break,
            }
            lines += 1;
        }
        (rows > 0 && rows + 1 >= m && (rows + 1) % m == 0).then_some(grid_end)
    }

    /// Whether the first line from `ahead` on that is no rule is a
    /// labelled row of k cells.
    fn labelled_row_ahead(&mut self, ahead: usize, k: usize) -> bool {
        let ahead = self.past_rules(ahead);
        matches!(self.peek(ahead), Some((_, LineKind::LabelledRow(_, c))) if c.tokens.len() == k)
    }

    /// The first line from `ahead` on that is no rule.
    fn past_rules(&mut self, mut ahead: usize) -> usize {
        while matches!(self.peek(ahead), Some((_, LineKind::Rule))) {
            ahead += 1;
        }
        ahead
    }

    /// The stretch of spreadsheet rows of k fields and `delimiter` from the
    /// next line on (after `first`, a row of only delimiters or not, when
    /// given), rules skipped, each ending in an empty field, up to a window
    /// of many grids: whether each is a row of only delimiters, the lines it
    /// spans, and whether more may follow the window. `None` when a row
    /// fills its last field: that column is a grid's.
    pub(super) fn trailing_stretch(
        &mut self,
        k: usize,
        delimiter: Option<char>,
        first: Option<bool>,
    ) -> Option<(Vec<bool>, Vec<usize>, bool)> {
        let row =
            |c: &Cells| c.words && !c.field && c.label.is_none() && c.tokens.len() == k && c.delimiter == delimiter;
        let window = (3 * k).max(1024);
        let (mut empty, mut lines): (Vec<bool>, usize) = (first.into_iter().collect(), 0);
        let mut ends = vec![0; empty.len()];
        while empty.len() < window {
            match self.peek(lines) {
                Some((_, LineKind::Rule)) => {}
                Some((_, LineKind::Cells(c) | LineKind::Separator(c))) if row(c) && !c.ends_in_empty_field() => {
                    return None
                }
                Some((_, LineKind::Cells(c) | LineKind::Separator(c))) if row(c) => {
                    empty.push(c.all_empty_fields());
                    ends.push(lines + 1);
                }
                _ => break,
            }
            lines += 1;
        }
        let more = empty.len() == window;
        Some((empty, ends, more))
    }

    /// Whether the line `ahead` lines on is a row that starts with a label
    /// (`Row 1,…`, or a number before its cells): what follows a header.
    fn labelled_row_at(&mut self, ahead: usize) -> bool {
        match self.peek(ahead) {
            Some((_, LineKind::LabelledRow(..))) => true,
            Some((_, LineKind::Cells(c))) => {
                c.words && matches!(c.tokens.first(), Some(t) if !matches!(&t.text, TokenText::Word(w) if w.is_empty()))
            }
            _ => false,
        }
    }

    /// Whether the row of only delimiters at the next line, of n fields,
    /// starts a grid: the rows from it (rules skipped) make whole grids of n
    /// rows with it as a row, and not without it.
    pub(super) fn separator_starts_grid(&mut self, n: usize) -> bool {
        let (empty, more, end) = self.rows_ahead(n, 0, (3 * n).max(1024));
        if empty.len() < 2 || !empty[0] {
            return self.heads_damaged_grid(n, empty.len(), end);
        }
        // The rows may stop at a grid's row written wrong: a grid they
        // leave short may go on past it.
        let tail = |reader: &mut Self, r: usize| more || reader.damaged_row_ahead(n, r, end);
        !whole_grids_then(&empty[1..], n, |r| tail(self, r)) && whole_grids_then(&empty, n, |r| tail(self, r))
    }

    /// Whether a row of only delimiters heads a grid of n rows one of which
    /// is written wrong (a cell short or long), or with a stray line inside:
    /// with it, `rows` rows of n cells (fewer than n) come before the line
    /// `ahead` lines on, and that line is the grid's row written wrong, the
    /// rows after it making the grid whole ([`Self::damaged_row_ahead`]), or
    /// a line of cells the grid's rows make whole without
    /// ([`Self::stray_line_ahead`]), below a row of the grid's own. (Right
    /// under the row of only delimiters, a line is a title or an index over
    /// a grid below, the row a blank line between grids.)
    fn heads_damaged_grid(&mut self, n: usize, rows: usize, ahead: usize) -> bool {
        rows < n
            && (self.damaged_row_ahead(n, rows, ahead)
                || (rows >= 2 && self.stray_line_ahead(n, rows, ahead, Stray::Cells)))
    }

    /// Whether the lines right after a line of k cells, rows of a spreadsheet
    /// with another delimiter than its own (`2024;01;15` above rows of `,`
    /// or tabs), make whole grids without it: of k rows, or of k − 1 rows
    /// each ending in an empty field. The line is then none of theirs.
    pub(super) fn spreadsheet_grid_below(&mut self, cells: &Cells) -> bool {
        let k = cells.tokens.len();
        let delimiter = match self.peek(0) {
            Some((_, LineKind::Cells(c) | LineKind::Separator(c))) if c.tokens.len() == k => c.delimiter,
            _ => return false,
        };
        if delimiter.is_none() || delimiter == cells.delimiter {
            return false;
        }
        // A row of the line's own form among them (one row pasted with tabs
        // in a grid written with spaces) makes them rows of one grid with it.
        let mut ahead = 1;
        while ahead < k {
            match self.peek(ahead) {
                Some((_, LineKind::Rule)) => {}
                Some((_, LineKind::Cells(c) | LineKind::Separator(c))) if c.tokens.len() == k => {
                    if c.delimiter == cells.delimiter {
                        return false;
                    }
                }
                _ => break,
            }
            ahead += 1;
        }
        self.whole_without_line(k, delimiter)
    }

    /// The rows of n cells below a block's first row, up to the first line
    /// that is none, each given back the empty field after its last cell
    /// that was taken for the end of a whole puzzle on one line
    /// ([`Cells::cut`]: sixteen cells and a delimiter, `…,4,`, a 4×4). Below a
    /// first row without one, such a row has n + 1 fields, a row written
    /// wrong for the block to name, never a row whose cells moved a column.
    /// Rows of only delimiters are passed (an empty row is empty either way),
    /// and a line that is a puzzle of its own (a 4×4 on one line after a
    /// 16×16) ends them.
    pub(super) fn restore_cut_fields(&mut self, n: usize) {
        let small = self.small_side(n);
        let most = MAX_RUN_ROWS.min(MAX_RUN_CELLS / n).max(n);
        let lines = self.lines_of_rows(most, |kind| match kind {
            LineKind::Separator(c) => c.tokens.len() == n,
            LineKind::Cells(c) => is_block_row(c, n, small),
            _ => false,
        });
        for (_, kind) in self.pending.iter_mut().take(lines) {
            if let LineKind::Cells(c) = kind {
                c.uncut();
            }
        }
    }

    /// The lines ahead up to the first that is neither a rule nor a row
    /// (as `row` tells), or up to the `most`-th row: how many.
    fn lines_of_rows(&mut self, most: usize, row: impl Fn(&LineKind) -> bool) -> usize {
        let (mut rows, mut lines) = (0, 0);
        while rows < most {
            match self.peek(lines) {
                Some((_, LineKind::Rule)) => {}
                Some((_, kind)) if row(kind) => rows += 1,
                _ => break,
            }
            lines += 1;
        }
        lines
    }

    /// A row of k cells whose delimiter after its last cell was taken for
    /// the end of a whole puzzle on one line ([`Cells::cut`]), read as a
    /// grid's row after all: that empty field is given back to it and to
    /// the rows cut so right after it, and dropped again as any grid's
    /// delimiter after each row is ([`Self::drop_trailing_field`]): where
    /// every row of the grid has one. Else they are rows of k + 1 fields,
    /// as a 9×9's rows of ten are. Unless `keep`, rows whose field stays
    /// are cut again, as they were (a row of only delimiters may yet be a
    /// blank line between puzzles on one line). Whether the field was
    /// dropped.
    pub(super) fn drop_cut_field(&mut self, cells: &mut Cells, keep: bool) -> bool {
        let Some(cut) = cells.cut.take() else { return false };
        let (k, delimiter) = (cells.tokens.len(), cells.delimiter);
        cells.tokens.push(*cut);
        let lines = self.lines_of_rows(usize::MAX, |kind| match kind {
            LineKind::Cells(c) | LineKind::Separator(c) => {
                c.cut.is_some() && c.tokens.len() == k && c.delimiter == delimiter && !c.field && c.label.is_none()
            }
            _ => false,
        });
        for (_, kind) in self.pending.iter_mut().take(lines) {
            if let LineKind::Cells(c) | LineKind::Separator(c) = kind {
                c.uncut();
            }
        }
        self.drop_trailing_field(cells);
        if cells.tokens.len() == k {
            return true;
        }
        if keep {
            return false;
        }
        let recut = |c: &mut Cells| {
            if c.tokens.len() == k + 1 {
                c.cut = c.tokens.pop().map(Box::new);
            }
        };
        recut(cells);
        for (_, kind) in self.pending.iter_mut().take(lines) {
            if let LineKind::Cells(c) | LineKind::Separator(c) = kind {
                recut(c);
            }
        }
        false
    }

    /// Spreadsheet rows that each end in an empty field: k − 1 cells and a
    /// delimiter after the last, as a spreadsheet saves them once a cell
    /// further right was ever used (`5,3,,,7,,,,,`). They were read as rows
    /// of k cells, and nine such rows as a 10×10 block a row short. The last
    /// field of the row at hand and of the rows right after it is dropped
    /// when those rows make whole grids of k − 1 rows (rows of only
    /// delimiters between them blank lines; a k×k grid whose last column is
    /// empty keeps it, its k rows no whole grids of k − 1), or when the grid
    /// options fix the side at k − 1 (`--box`, `--grid`, `--regions`).
    /// Where whole grids of k rows are a reading too, a square k keeps it,
    /// and so does any k under `--latin`.
    pub(super) fn drop_trailing_field(&mut self, cells: &mut Cells) {
        let k = cells.tokens.len();
        // Rows of another delimiter are another grid's (`;;;` above pasted tabs).
        let delimiter = cells.delimiter;
        // Past the largest side, no row either way: nothing to look ahead for.
        if !(3..=MAX_SIZE + 1).contains(&k)
            || !cells.words
            || cells.field
            || cells.label.is_some()
            || !cells.ends_in_empty_field()
        {
            return;
        }
        let Some((empty, ends, more)) = self.trailing_stretch(k, delimiter, Some(cells.all_empty_fields())) else {
            return;
        };
        // A stretch past the window is dropped from up to the last place a
        // grid may end in it; the rest, from there, is decided again.
        let items = if more { last_grid_end(&empty, k - 1) } else { empty.len() };
        let lines = ends[..items].last().copied().unwrap_or(0);
        // A side of k − 1 that makes no grid (a prime without `--latin`),
        // or a value past it, keeps the column: a 4×4 whose last column is
        // empty is no 3×3, nor a 16×16 whose first row is empty a 15×15.
        let values = |c: &Cells| c.tokens.iter().any(|t| matches!(t.symbol, Symbol::Value(v) if v >= k));
        let too_big = values(cells)
            || self.pending.iter().take(lines).any(|(_, kind)| matches!(kind, LineKind::Cells(c) if values(c)));
        // Where the rows make whole grids of k rows too (a k×k grid whose
        // last column and last row are empty, or grids of k − 1 rows each
        // with one row of only delimiters after it), a square side, as
        // nearly every sudoku's is, wins: nine rows of nine fields are a
        // 9×9, ten rows of ten a 9×9 and a blank line. Neither square:
        // k − 1, a delimiter after each row. Under `--latin` every side is
        // a grid and none is a sudoku's: the grid as written, k rows of k
        // fields (a 7×7 whose last row and column are empty is no 6×6).
        let as_written = exact_sqrt(k).is_some() || self.spec.is_latin();
        // A fixed side decides between the two, but a row of its grid is
        // dropped a field only where every row is: one row a field long
        // (a stray delimiter first, a given typed twice) is named, never
        // read with its cells a column on.
        let short = match self.spec.fixed_size() {
            Some(n) => n + 1 == k && whole_grids(&empty, n, more),
            None => {
                !too_big
                    && empty.iter().any(|&empty| !empty)
                    && whole_grids(&empty, k - 1, more)
                    && self.spec.geometry_for(k - 1).is_ok()
                    && !(as_written && whole_grids(&empty, k, more))
            }
        };
        if !short {
            return;
        }
        cells.tokens.pop();
        for (_, kind) in self.pending.iter_mut().take(lines) {
            if let LineKind::Cells(c) | LineKind::Separator(c) = kind {
                c.tokens.pop();
            }
        }
    }
}

/// The most rows of a grid typed without its last empty cells
/// ([`PuzzleReader::even_ragged_rows`]) looked through: a 100×100.
const MAX_ROWS: usize = 100;

/// How a spreadsheet row typed by hand sits in its grid: its fields, and
/// whether it ends with a value (a row that stops at its last given).
struct TypedRow {
    /// The delimiter between its fields (none in a row of one).
    delimiter: Option<char>,
    fields: usize,
    ends_with_value: bool,
    /// Whether the first field is empty: rows numbered in their first field
    /// have none such.
    starts_empty: bool,
    /// The fields up to its last that is not empty: those after it are
    /// all empty (a delimiter after the row leaves one such).
    empty_from: usize,
}

/// A line as a row of a grid typed in a spreadsheet or by hand, with
/// `delimiter` between its cells: each field empty, `.`, or a number up to
/// [`MAX_SIZE`] (or a symbol of the alphabet); none quoted. A line of one
/// value is a row with its only given first.
fn typed_row(text: &str, delimiter: char, alphabet: &crate::text::symbols::Alphabet) -> Option<(TypedRow, usize)> {
    if text.trim().is_empty() || text.contains('"') {
        return None;
    }
    // Another delimiter: no row of this grid.
    if [',', ';', '\t'].into_iter().any(|d| d != delimiter && text.contains(d)) {
        return None;
    }
    let fields: Vec<&str> = text.split(delimiter).map(str::trim).collect();
    let mut largest = 0;
    for field in &fields {
        let value = match field.parse::<usize>() {
            Ok(v) => v,
            Err(_) if field.is_empty() || *field == "." => 0,
            Err(_) => {
                let mut chars = field.chars();
                match (chars.next(), chars.next()) {
                    (Some(c), None) => match alphabet.read(c) {
                        Symbol::Value(v) => v,
                        Symbol::Empty => 0,
                        Symbol::Unknown => return None,
                    },
                    _ => return None,
                }
            }
        };
        if value > MAX_SIZE {
            return None;
        }
        largest = largest.max(value);
    }
    let empty = |f: &&&str| f.is_empty() || **f == "." || **f == "0";
    let empty_from = fields.len() - fields.iter().rev().take_while(empty).count();
    let row = TypedRow {
        delimiter: text.contains(delimiter).then_some(delimiter),
        fields: fields.len(),
        ends_with_value: empty_from == fields.len(),
        starts_empty: fields.first().is_some_and(|f| empty(&f)),
        empty_from,
    };
    Some((row, largest))
}

impl<R: BufRead> PuzzleReader<'_, R> {
    /// Rows of a grid typed with their empty cells after the last given
    /// left off (`4,,,,,,8,,5`, `,3`, `,,,7`), or some with a delimiter after
    /// them and some without: the line read (after a blank line, or first)
    /// and the lines after it, to a blank line or the end, are m rows of
    /// fields (see [`typed_row`]) that make an m×m grid once each is
    /// filled out with empty cells, or cut, where only empty fields are
    /// past m (a delimiter after it). They are rewritten so, when all of
    /// these hold: a third of the rows or more (two at least) are not of m
    /// fields, every short row ends with a value (as a row typed so does),
    /// no value is above m, some row reaches m fields, some row's first
    /// field is empty (rows numbered in their first field are no such
    /// grid), and the grid so read has exactly one solution. Read as they were,
    /// such rows were a record for nearly each of them; a guess that a
    /// grid's empty row was typed as a blank line (so that fewer rows make
    /// a smaller grid) reads as none of those checks allow.
    pub(super) fn even_ragged_rows(&mut self) {
        let Some((texts, rows, read)) = self.typed_rows() else { return };
        let evened = evened_rows(&texts, &rows).filter(|evened| self.reads_unique(evened));
        let mut back: Vec<(std::io::Result<super::Line>, Vec<u8>)> = Vec::new();
        match evened {
            Some(evened) => {
                let mut evened = evened.into_iter();
                self.buf = evened.next().expect("m rows").into_bytes();
                back.extend(evened.map(|text| (Ok(super::Line::Read), text.into_bytes())));
                // The line after the rows, as it was read.
                back.extend(read.into_iter().last());
            }
            None => back = read,
        }
        for line in back.into_iter().rev() {
            self.ahead.push_front(line);
        }
    }

    /// The line read and the lines after it, to a blank line or the end, as
    /// rows typed with one delimiter ([`typed_row`]): their texts, their
    /// shapes, and every line read past the first (to be put back). None
    /// where the line read is no such row, or the rows end at a line that
    /// is no blank line (a title, text): then nothing is read past it.
    #[allow(clippy::type_complexity)]
    fn typed_rows(
        &mut self,
    ) -> Option<(Vec<String>, Vec<(TypedRow, usize)>, Vec<(std::io::Result<super::Line>, Vec<u8>)>)> {
        let first = std::str::from_utf8(super::unmarked(&self.buf)).ok()?.trim_end_matches('\r').to_string();
        let delimiter = [',', ';', '\t'].into_iter().find(|&d| first.contains(d))?;
        // A row wider than the rows looked through (a line of a thousand
        // fields) is answered without reading on.
        let row = typed_row(&first, delimiter, self.alphabet)?;
        if self.alphabet.is_custom() || row.0.fields > MAX_ROWS + 1 {
            return None;
        }
        let (mut texts, mut rows, mut read) = (vec![first], vec![row], Vec::new());
        let ends = loop {
            let (result, next) = self.ahead.pop_front().unwrap_or_else(|| {
                let mut next = Vec::new();
                (super::read_bounded_line(&mut self.input, &mut next, super::MAX_LINE), next)
            });
            let text = matches!(result, Ok(super::Line::Read))
                .then(|| std::str::from_utf8(&next).ok().map(|t| t.trim_end_matches('\r').to_string()))
                .flatten();
            let blank = text.as_deref().is_some_and(|t| t.trim().is_empty());
            let end = !matches!(result, Ok(super::Line::Read));
            let row = text.as_deref().and_then(|t| typed_row(t, delimiter, self.alphabet));
            read.push((result, next));
            match row {
                Some(row) if rows.len() < MAX_ROWS => {
                    rows.push(row);
                    texts.push(text.expect("a row"));
                }
                _ => break blank || end,
            }
        };
        if !ends {
            for line in read.into_iter().rev() {
                self.ahead.push_front(line);
            }
            return None;
        }
        Some((texts, rows, read))
    }

    /// Whether the m rows `evened` read as a puzzle with exactly one
    /// solution. Fewer givens than any proper puzzle of the grid has (or,
    /// where its rules only keep cells apart, fewer than n − 1 values
    /// shown) rule it out without a search.
    fn reads_unique(&mut self, evened: &[String]) -> bool {
        let m = evened.len();
        let under = self.under();
        let fixed = self.spec.fixed_size();
        let rows: Option<Vec<(usize, Vec<Token>)>> = evened
            .iter()
            .enumerate()
            .map(|(i, text)| match super::line::classify(text, self.alphabet, fixed, under) {
                LineKind::Cells(c) | LineKind::Separator(c) if c.tokens.len() == m => {
                    Some((self.line_no + i, c.tokens))
                }
                _ => None,
            })
            .collect();
        let Some(rows) = rows else { return false };
        let Ok(puzzle) = self.resolve(rows[0].0, m, &rows) else { return false };
        let (fewest, _) = crate::generate::fewest_proper_givens(puzzle.geometry());
        let shown: Vec<_> = puzzle.givens().cells().iter().flatten().collect();
        let values: std::collections::HashSet<_> = shown.iter().collect();
        if shown.len() < fewest || (fewest > 0 && values.len() + 1 < m) {
            return false;
        }
        self.told_wrongness(&rows, m, GUESS_TIME) == Some(0)
    }
}

/// The rows typed ([`PuzzleReader::even_ragged_rows`]), `texts` of shapes
/// `rows`, each filled out with empty fields to m (their number) or cut
/// where only empty fields are past m, where they are such a grid.
fn evened_rows(texts: &[String], rows: &[(TypedRow, usize)]) -> Option<Vec<String>> {
    let m = rows.len();
    let fits = |(row, _): &(TypedRow, usize)| match row.fields.cmp(&m) {
        Ordering::Less => row.ends_with_value,
        Ordering::Equal => true,
        Ordering::Greater => row.fields == m + 1 && row.empty_from <= m,
    };
    // A third of the rows or more (a row or two a field short or long are
    // rows written wrong, to be reported).
    let ragged = rows.iter().filter(|(row, _)| row.fields != m).count() >= 2.max(m.div_ceil(3));
    let grid = (4..=MAX_ROWS).contains(&m)
        && ragged
        && rows.iter().any(|(row, _)| row.starts_empty)
        && rows.iter().all(fits)
        && rows.iter().all(|&(_, largest)| largest <= m)
        && rows.iter().any(|(row, _)| row.fields >= m);
    let delimiter = rows.iter().find_map(|(row, _)| row.delimiter)?;
    grid.then(|| {
        texts
            .iter()
            .zip(rows)
            .map(|(text, (row, _))| match row.fields.cmp(&m) {
                Ordering::Less => format!("{text}{}", delimiter.to_string().repeat(m - row.fields)),
                Ordering::Equal => text.clone(),
                Ordering::Greater => text.split(delimiter).take(m).collect::<Vec<_>>().join(&delimiter.to_string()),
            })
            .collect()
    })
}
