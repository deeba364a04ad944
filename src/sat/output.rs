//! What SAT solvers print: SAT-competition output (`s`, `v` lines), MiniSat's result file, or bare literals.

use std::io::BufRead;

use thiserror::Error;
use varisat::CnfFormula;

use crate::error::{echo, Position};
use crate::sat::Model;
use crate::text::decoded::Decoded;
use crate::text::lines::{max_literal_line, read_line_within, Bounded};

/// What a solver answered.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Answer {
    /// A model, every variable given a value.
    Satisfiable(Model),
    /// No model: the solver's claim, to be confirmed before anyone believes it.
    Unsatisfiable,
}

/// Why a model cannot be read or used.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
///
/// `source_name` names the solver's output in messages, `position` a place in it.
#[allow(missing_docs)] // the fields, named in each variant's message
pub enum ModelError {
    /// The output cannot be read.
    #[error("{source_name}: {message}")]
    Io { source_name: String, message: String },
    /// A CNF of more variables than a SAT solver can have: no model of it
    /// is read (its table alone would not fit in memory).
    #[error("{source_name}: a CNF of {var_count} variables, past the {max} a formula can have")]
    TooManyVariables { source_name: String, var_count: usize, max: usize },
    /// A line longer than any answer for the CNF needs (an endless one,
    /// `/dev/zero`, included): reading stops there rather than fill memory.
    #[error("{position}: a line longer than {max} bytes, more than an answer for {var_count} variables needs")]
    LineTooLong { position: Position, max: usize, var_count: usize },
    /// No answer line and no literals.
    #[error("{source_name}: no answer in it (expected `s SATISFIABLE` with `v` lines, `s UNSATISFIABLE`, MiniSat's `SAT` or `UNSAT`, or a list of literals)")]
    Empty { source_name: String },
    /// Something that is no answer line and no literal.
    #[error("{position}: '{token}' is not {expected}")]
    Unexpected { position: Position, token: String, expected: &'static str },
    /// Two answer lines.
    #[error("{position}: a second answer line (`{line}`; expected one, and line {first} gave one)")]
    SecondStatus { position: Position, line: String, first: usize },
    /// A literal of a variable the CNF does not have.
    #[error("{position}: literal {literal} is out of range (the CNF has variables 1 to {var_count})")]
    OutOfRange { position: Position, literal: i64, var_count: usize },
    /// A variable given both values; `at` is where the first was read, if
    /// the places were kept (for up to 4,194,304 variables).
    #[error("{position}: literal {literal} contradicts {earlier}{} (expected each variable one value)", earlier_place(.at))]
    Contradiction { position: Position, literal: i64, earlier: i64, at: Option<(u32, u32)> },
    /// Literals after the closing 0.
    #[error("{position}: literal {literal} after the model's closing 0 at line {}, column {} (expected the model to end there)", .at.0, .at.1)]
    AfterEnd { position: Position, literal: i64, at: (usize, usize) },
    /// `s UNKNOWN` or MiniSat's `INDET`.
    #[error("{source_name}: the solver gave no answer (`{status}`)")]
    NoAnswer { source_name: String, status: String },
    /// Satisfiable, with no literals.
    #[error("{position}: says satisfiable but gives no model (expected `v` lines of literals, ending in 0)")]
    NoModel { position: Position },
    /// A model with no closing 0: where its last literal ends.
    #[error("{position}: the model does not end with 0: it may be cut off (expected 0 after its last literal)")]
    Unterminated { position: Position },
    /// A variable without a value.
    #[error("{source_name}: the model is partial: variable {var} has no value (expected a value for each of the {var_count} variables)")]
    Partial { source_name: String, var: usize, var_count: usize },
    /// A clause the model leaves false.
    #[error("{source_name}: the model violates clause {index} of the CNF ({clause}0): every literal of it is false")]
    ViolatesClause { source_name: String, index: usize, clause: String },
    /// A model that gives no solution of the puzzle in the CNF's comments.
    #[error("{source_name}: {message}")]
    NotAGrid { source_name: String, message: String },
}

/// Up to this many variables a model's reader keeps where each value was
/// read, 8 bytes a variable (32 MB here), so that a contradiction names both
/// places. Past it, only the later one: a 400x400's 64 million variables
/// would need 512 MB for places beside 64 MB of values.
pub(crate) const PLACES_KEPT: usize = 1 << 22;

/// ` at line L, column C`, or ` read earlier` where the place was not kept.
fn earlier_place(at: &Option<(u32, u32)>) -> String {
    match at {
        Some((line, column)) => format!(" at line {line}, column {column}"),
        None => " read earlier".into(),
    }
}

/// The UTF-8 byte-order mark some editors put at the start of a file.
pub(crate) const BOM: &[u8] = b"\xEF\xBB\xBF";

/// Read a solver's answer for a CNF of `var_count` variables; `source_name` names it in messages.
///
/// Accepts SAT-competition output (`c`, `s`, `v` lines), MiniSat result files
/// (`SAT` then literals, `UNSAT`, `INDET`) and bare literal lists.
pub fn read_model(input: impl BufRead, source_name: &str, var_count: usize) -> Result<Answer, ModelError> {
    if var_count > varisat::Var::max_count() {
        let (source_name, max) = (source_name.into(), varisat::Var::max_count());
        return Err(ModelError::TooManyVariables { source_name, var_count, max });
    }
    // The answer line: its text, what it says, and its line.
    let mut status: Option<(String, Said, usize)> = None;
    let mut values: Vec<Option<bool>> = vec![None; var_count];
    // Where each variable's value was read, (line, column), up to
    // PLACES_KEPT variables: a contradiction names both places. The closing
    // 0's place, and the column just past the last literal.
    let mut read_at: Vec<(u32, u32)> = if var_count <= PLACES_KEPT { vec![(0, 0); var_count] } else { Vec::new() };
    let (mut closed_at, mut last_end) = ((0, 0), (0, 0));
    let mut seen_literal = false;
    let mut closed = false;
    let mut competition = false;
    // Lines end in LF, CRLF or a lone CR; a byte-order mark starts no token.
    let mut line_no = 0;
    // Only one line is held at a time, and no more of it than an answer can
    // need: comments may go on for ever, a line may not.
    // PowerShell 5's `>` writes UTF-16: `cadical puzzle.cnf > answer.txt` there.
    let (mut input, mut line, max) = (Decoded::new(input), Vec::new(), max_literal_line(var_count));
    loop {
        let read = read_line_within(&mut input, &mut line, max)
            .map_err(|e| ModelError::Io { source_name: source_name.into(), message: e.to_string() })?;
        match read {
            Bounded::Line => {}
            Bounded::End => break,
            Bounded::TooLong => {
                let position = Position { source: source_name.into(), line: line_no + 1, column: None };
                return Err(ModelError::LineTooLong { position, max, var_count });
            }
        }
        if line_no == 0 && line.starts_with(BOM) {
            line.drain(..BOM.len());
        }
        let line = line.strip_suffix(b"\r").unwrap_or(&line);
        for line in line.split(|&b| b == b'\r') {
            line_no += 1;
            let position = |column: usize| Position { source: source_name.into(), line: line_no, column: Some(column) };
            // A tab is whitespace too: `v<TAB>1<TAB>-2`, `s<TAB>SATISFIABLE`.
            let spaced = |r: &str| r.is_empty() || r.starts_with([' ', '\t']);
            let comment = |text: &str| text.trim_start().strip_prefix('c').is_some_and(spaced);
            let text = match std::str::from_utf8(line) {
                Ok(text) => text,
                // A comment may hold anything (`c résultat` in Latin-1).
                Err(_) if comment(&String::from_utf8_lossy(line)) => continue,
                Err(e) => {
                    let at = e.valid_up_to();
                    let column = String::from_utf8_lossy(&line[..at]).chars().count() + 1;
                    return Err(ModelError::Unexpected {
                        position: position(column),
                        token: format!("byte 0x{:02x}", line[at]),
                        expected: "UTF-8 text",
                    });
                }
            };
            let text = text.trim_end();
            let trimmed = text.trim_start();
            if trimmed.is_empty() || comment(trimmed) {
                continue;
            }
            let (literals, offset) = if let Some(rest) = trimmed.strip_prefix('s').filter(|r| spaced(r)) {
                let Some(said) = Said::from_word(rest.trim()) else {
                    return Err(ModelError::Unexpected {
                        position: position(1),
                        token: echo(trimmed),
                        expected: "an answer line (`s SATISFIABLE`, `s UNSATISFIABLE` or `s UNKNOWN`)",
                    });
                };
                record_status(&mut status, trimmed, said, position(1), line_no)?;
                competition = true;
                continue;
            } else if let Some(said) = Said::from_word(trimmed).filter(|_| status.is_none() && !seen_literal) {
                record_status(&mut status, trimmed, said, position(1), line_no)?;
                continue;
            } else if let Some(rest) = trimmed.strip_prefix('v').filter(|r| spaced(r)) {
                competition = true;
                (rest, text.len() - rest.len())
            } else {
                (trimmed, text.len() - trimmed.len())
            };
            // Columns in characters, counted on from token to token.
            let (mut byte, mut column) = (0, text[..offset].chars().count() + 1);
            for (start, token) in tokens(literals) {
                column += literals[byte..start].chars().count();
                byte = start;
                let position = position(column);
                let literal: i64 = token.parse().map_err(|_| ModelError::Unexpected {
                    position: position.clone(),
                    token: echo(token),
                    expected: "a literal (a nonzero integer) or the closing 0",
                })?;
                if literal == 0 {
                    if !closed {
                        closed_at = (line_no, column);
                    }
                    closed = true;
                    continue;
                }
                if closed {
                    return Err(ModelError::AfterEnd { position, literal, at: closed_at });
                }
                let var = literal.unsigned_abs() as usize;
                if var > var_count {
                    return Err(ModelError::OutOfRange { position, literal, var_count });
                }
                let value = literal > 0;
                match values[var - 1] {
                    Some(earlier) if earlier != value => {
                        let earlier = if earlier { var as i64 } else { -(var as i64) };
                        let at = read_at.get(var - 1).copied();
                        return Err(ModelError::Contradiction { position, literal, earlier, at });
                    }
                    Some(_) => {}
                    None => {
                        values[var - 1] = Some(value);
                        if let Some(place) = read_at.get_mut(var - 1) {
                            *place = (line_no.try_into().unwrap_or(u32::MAX), column.try_into().unwrap_or(u32::MAX));
                        }
                    }
                }
                last_end = (line_no, column + token.chars().count());
                seen_literal = true;
            }
        }
    }
    let at = |(line, column): (usize, usize)| Position { source: source_name.into(), line, column: Some(column) };
    match status {
        Some((_, Said::Unsatisfiable, _)) => return Ok(Answer::Unsatisfiable),
        Some((line, Said::NoAnswer, _)) => {
            return Err(ModelError::NoAnswer { source_name: source_name.into(), status: echo(&line) })
        }
        Some((_, Said::Satisfiable, line)) if !seen_literal && var_count > 0 => {
            return Err(ModelError::NoModel { position: at((line, 1)) })
        }
        None if !seen_literal && !closed => return Err(ModelError::Empty { source_name: source_name.into() }),
        _ => {}
    }
    // Solvers close the model with 0; a bare list may leave it out.
    if !closed && (competition || status.is_some()) {
        return Err(ModelError::Unterminated { position: at(last_end) });
    }
    if let Some(i) = values.iter().position(Option::is_none) {
        return Err(ModelError::Partial { source_name: source_name.into(), var: i + 1, var_count });
    }
    Ok(Answer::Satisfiable(Model::from_values(values)))
}

/// What a solver's answer line says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Said {
    /// `SATISFIABLE`, MiniSat's `SAT`.
    Satisfiable,
    /// `UNSATISFIABLE`, MiniSat's `UNSAT`.
    Unsatisfiable,
    /// `UNKNOWN`, MiniSat's `INDET`, or `INDETERMINATE` as other solvers
    /// write it: the solver gave up.
    NoAnswer,
}

impl Said {
    /// What the answer line's word says; `None` for any other word.
    fn from_word(word: &str) -> Option<Said> {
        match word {
            "SATISFIABLE" | "SAT" => Some(Said::Satisfiable),
            "UNSATISFIABLE" | "UNSAT" => Some(Said::Unsatisfiable),
            "UNKNOWN" | "INDET" | "INDETERMINATE" => Some(Said::NoAnswer),
            _ => None,
        }
    }
}

fn record_status(
    status: &mut Option<(String, Said, usize)>,
    line: &str,
    said: Said,
    position: Position,
    line_no: usize,
) -> Result<(), ModelError> {
    if let Some((_, _, first)) = status {
        return Err(ModelError::SecondStatus { position, line: echo(line), first: *first });
    }
    *status = Some((line.into(), said, line_no));
    Ok(())
}

/// The whitespace-separated words of `text` with their 0-based byte columns.
pub(crate) fn tokens(text: &str) -> impl Iterator<Item = (usize, &str)> {
    text.split_whitespace().map(move |w| (w.as_ptr() as usize - text.as_ptr() as usize, w))
}

/// Check that `model` makes every clause of `formula` true.
pub fn check_model(formula: &CnfFormula, model: &Model, source_name: &str) -> Result<(), ModelError> {
    for (i, clause) in formula.iter().enumerate() {
        if !clause.iter().any(|lit| model.value(lit.var()) == Some(lit.is_positive())) {
            let text: String = clause.iter().map(|l| format!("{} ", l.to_dimacs())).collect();
            return Err(ModelError::ViolatesClause {
                source_name: source_name.into(),
                index: i + 1,
                clause: echo(&text),
            });
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Read;

    #[test]
    fn models_are_read_in_every_form() {
        let sat = Answer::Satisfiable(Model::from_values(vec![Some(true), Some(false), Some(true)]));
        let forms = ["s SATISFIABLE\nv 1 -2\nv 3 0\n", "SAT\n1 -2 3 0\n", "1 -2 3", "c hi\n1\n-2 3 0\n"];
        // Line ends CRLF or a lone CR, and a byte-order mark, read the same.
        let ends =
            ["s SATISFIABLE\r\nv 1 -2\r\nv 3 0\r\n", "s SATISFIABLE\rv 1 -2\rv 3 0\r", "\u{FEFF}SAT\n1 -2 3 0\n"];
        // Tabs are whitespace, after the line's letter too.
        let tabs = ["s\tSATISFIABLE\nc\thi\nv\t1\t-2\nv\t3\t0\n"];
        for text in forms.into_iter().chain(ends).chain(tabs) {
            assert_eq!(read_model(text.as_bytes(), "m", 3), Ok(sat.clone()), "{text}");
        }
        for text in ["s UNSATISFIABLE\n", "UNSAT\n"] {
            assert_eq!(read_model(text.as_bytes(), "m", 3), Ok(Answer::Unsatisfiable));
        }
    }

    /// What Windows tools write: an answer in UTF-16 (PowerShell 5's `>`),
    /// a comment in Latin-1. A byte that is no UTF-8 outside a comment is
    /// named where it is.
    #[test]
    fn answers_in_other_encodings_are_read() {
        let sat = Answer::Satisfiable(Model::from_values(vec![Some(true), Some(false), Some(true)]));
        let text = "c solved\r\ns SATISFIABLE\r\nv 1 -2 3 0\r\n";
        for little in [true, false] {
            let mut bytes = if little { vec![0xFF, 0xFE] } else { vec![0xFE, 0xFF] };
            for unit in text.encode_utf16() {
                bytes.extend(if little { unit.to_le_bytes() } else { unit.to_be_bytes() });
            }
            assert_eq!(read_model(&bytes[..], "m", 3), Ok(sat.clone()));
        }
        let latin1 = b"c r\xe9sultat\ns SATISFIABLE\nv 1 -2 3 0\n";
        assert_eq!(read_model(&latin1[..], "m", 3), Ok(sat));
        let error = read_model(&b"s SATISFIABLE\nv 1 -2\xe9 3 0\n"[..], "m", 3).unwrap_err();
        assert_eq!(error.to_string(), "m:2:7: 'byte 0xe9' is not UTF-8 text");
    }

    /// An endless line, of NULs (`/dev/zero`) or after a comment's `c`, is an
    /// error once it is longer than an answer can be, not memory filled.
    #[test]
    fn an_endless_line_is_an_error() {
        let nuls = std::io::repeat(0);
        let comment = "c ".as_bytes().chain(std::io::repeat(b'x'));
        let model = "SAT\n1 -2 ".as_bytes().chain(std::io::repeat(b' '));
        for input in [Box::new(nuls) as Box<dyn Read>, Box::new(comment), Box::new(model)] {
            let error = read_model(std::io::BufReader::new(input), "m", 3).unwrap_err();
            assert!(matches!(error, ModelError::LineTooLong { var_count: 3, .. }), "{error}");
        }
    }

    /// What is held is bounded, not what is read: comments past the bound
    /// in all are skipped, and a model of a million variables on one line
    /// (MiniSat's way, the most negative literals, CRLF) is read whole.
    #[test]
    fn long_answers_within_the_bound_are_read() {
        let comments = "c a comment line of a chatty solver\n".repeat(crate::text::lines::max_literal_line(3));
        let text = format!("{comments}s SATISFIABLE\nv 1 -2 3 0\n");
        assert!(matches!(read_model(text.as_bytes(), "m", 3), Ok(Answer::Satisfiable(_))));
        let vars = 999_999;
        let mut text = String::from("SAT\r\n");
        for v in 1..=vars {
            text += &format!("-{v} ");
        }
        text += "0\r\n";
        let Ok(Answer::Satisfiable(model)) = read_model(text.as_bytes(), "m", vars) else { panic!("not read") };
        assert_eq!(model.var_count(), vars);
        assert!((0..vars).all(|i| model.value(varisat::Var::from_index(i)) == Some(false)));
    }

    proptest::proptest! {
        #[test]
        fn no_model_text_panics(text in "(c|s|v|SAT|UNSAT|-?[0-9]{1,3}| |\n){0,40}") {
            let _ = read_model(text.as_bytes(), "m", 5);
        }
    }

    #[test]
    fn bad_models_say_what_and_where() {
        // A count of variables no formula can have is refused, not allocated
        // (usize::MAX was a capacity overflow panic).
        let huge = read_model("SAT\n1 0\n".as_bytes(), "m", usize::MAX).unwrap_err();
        assert!(matches!(huge, ModelError::TooManyVariables { var_count: usize::MAX, .. }), "{huge}");
        let err = |text: &str| read_model(text.as_bytes(), "m", 3).unwrap_err().to_string();
        assert_eq!(err("1 -2 x 0"), "m:1:6: 'x' is not a literal (a nonzero integer) or the closing 0");
        assert_eq!(err("v 1 4 0"), "m:1:5: literal 4 is out of range (the CNF has variables 1 to 3)");
        assert_eq!(
            err("1 -2 -1 3 0"),
            "m:1:6: literal -1 contradicts 1 at line 1, column 1 (expected each variable one value)"
        );
        assert_eq!(
            err("s SATISFIABLE\nv 1 2\nv 3 -2 0"),
            "m:3:5: literal -2 contradicts 2 at line 2, column 5 (expected each variable one value)"
        );
        // Past PLACES_KEPT variables the earlier place is not kept (it would
        // take 8 bytes a variable): the message names the later one only.
        let big = read_model("v 2 1 -1 0".as_bytes(), "m", PLACES_KEPT + 1).unwrap_err().to_string();
        assert_eq!(big, "m:1:7: literal -1 contradicts 1 read earlier (expected each variable one value)");
        assert_eq!(
            err("s SATISFIABLE\nv 1 -2 3 0\nv 1 0\n"),
            "m:3:3: literal 1 after the model's closing 0 at line 2, column 10 (expected the model to end there)"
        );
        assert_eq!(
            err("c hi\ns SATISFIABLE\nc no model\n"),
            "m:2:1: says satisfiable but gives no model (expected `v` lines of literals, ending in 0)"
        );
        assert_eq!(
            err("s SATISFIABLE\ns UNSATISFIABLE\n"),
            "m:2:1: a second answer line (`s UNSATISFIABLE`; expected one, and line 1 gave one)"
        );
        assert_eq!(
            err("s SATISFIABLE\nv 1 -2\nv 3\n"),
            "m:3:4: the model does not end with 0: it may be cut off (expected 0 after its last literal)"
        );
        // A lone CR ends a line: the fault is on line 2.
        assert_eq!(err("SAT\r1 -2 x 0"), "m:2:6: 'x' is not a literal (a nonzero integer) or the closing 0");
        assert!(err("1 -2 0").contains("variable 3 has no value"));
        assert!(err("").contains("no answer in it"));
        assert!(err("s UNKNOWN\n").contains("gave no answer"));
        assert!(err("s MAYBE\n").starts_with("m:1:1: "));
    }

    /// Every way solvers write "no answer" is that, never "not a literal"
    /// (tester B, F3: `INDETERMINATE`); and the answer words stand alone as
    /// MiniSat writes them, or after `s`.
    #[test]
    fn every_way_of_saying_no_answer_is_no_answer() {
        for text in ["INDET\n", "INDETERMINATE\n", "UNKNOWN\n", "s UNKNOWN\n", "s INDETERMINATE\n", "c t\ns\tINDET\n"] {
            let err = read_model(text.as_bytes(), "m", 3).unwrap_err();
            assert!(matches!(err, ModelError::NoAnswer { .. }), "{text:?}: {err}");
            assert!(err.to_string().contains("the solver gave no answer"), "{text:?}: {err}");
        }
        for text in ["UNSATISFIABLE\n", "UNSAT\n", "s UNSATISFIABLE\n"] {
            assert!(matches!(read_model(text.as_bytes(), "m", 3), Ok(Answer::Unsatisfiable)), "{text:?}");
        }
        for text in ["SATISFIABLE\n1 -2 3 0\n", "SAT\n1 -2 3 0\n", "s SATISFIABLE\nv 1 -2 3 0\n"] {
            let Ok(Answer::Satisfiable(model)) = read_model(text.as_bytes(), "m", 3) else { panic!("{text:?}") };
            assert_eq!(model, Model::from_values(vec![Some(true), Some(false), Some(true)]), "{text:?}");
        }
    }
}
