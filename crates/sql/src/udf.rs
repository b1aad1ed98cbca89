//! The DataFusion side of the functions: one [`ScalarUDFImpl`] for all of them, told apart by
//! [`Function`], with argument coercion, the column readers and the per-row loops. The chess
//! is in [`game`](crate::game).

use std::sync::Arc;

use datafusion::arrow::array::{
    Array, ArrayRef, AsArray, BooleanBuilder, Int64Builder, StringBuilder,
};
use datafusion::arrow::datatypes::{DataType, Int64Type};
use datafusion::common::{exec_err, plan_err, DataFusionError, Result, ScalarValue};
use datafusion::logical_expr::{
    ColumnarValue, ScalarFunctionArgs, ScalarUDF, ScalarUDFImpl, Signature, Volatility,
};

use crate::game::{GameError, Replay, Starts, Target};

/// The SQL functions.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Function {
    Uci,
    San,
    FenAt,
    MoveAt,
    Reaches,
    NextMove,
    Outcome,
    Key,
}

/// What an argument is.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Param {
    Moves,
    Plies,
    StartFen,
    Ply,
    Fen,
}

impl Param {
    fn name(self) -> &'static str {
        match self {
            Param::Moves => "moves",
            Param::Plies => "plies",
            Param::StartFen => "start_fen",
            Param::Ply => "ply",
            Param::Fen => "fen",
        }
    }

    /// The type the argument is given as, or `None` if `given` does not fit.
    fn coerce(self, given: &DataType) -> Option<DataType> {
        use DataType::*;
        match (self, given) {
            (Param::Moves, Binary | LargeBinary | BinaryView) => Some(given.clone()),
            (Param::Moves, FixedSizeBinary(_) | Null) => Some(Binary),
            (Param::Plies | Param::Ply, t) if t.is_integer() || *t == Null => Some(Int64),
            (Param::StartFen | Param::Fen, Utf8 | LargeUtf8 | Utf8View) => Some(given.clone()),
            (Param::StartFen | Param::Fen, Null) => Some(Utf8),
            _ => None,
        }
    }
}

const GAME: [Param; 3] = [Param::Moves, Param::Plies, Param::StartFen];

impl Function {
    pub(crate) const ALL: [Function; 8] = [
        Function::Uci,
        Function::San,
        Function::FenAt,
        Function::MoveAt,
        Function::Reaches,
        Function::NextMove,
        Function::Outcome,
        Function::Key,
    ];

    pub(crate) fn name(self) -> &'static str {
        match self {
            Function::Uci => "chess_uci",
            Function::San => "chess_san",
            Function::FenAt => "chess_fen_at",
            Function::MoveAt => "chess_move_at",
            Function::Reaches => "chess_reaches",
            Function::NextMove => "chess_next_move",
            Function::Outcome => "chess_outcome",
            Function::Key => "chess_key",
        }
    }

    /// The arguments after the game's three columns (or all of them, for `chess_key`).
    fn params(self) -> &'static [Param] {
        match self {
            Function::Uci | Function::San | Function::Outcome => &GAME,
            Function::FenAt | Function::MoveAt => {
                &[Param::Moves, Param::Plies, Param::StartFen, Param::Ply]
            }
            Function::Reaches | Function::NextMove => {
                &[Param::Moves, Param::Plies, Param::StartFen, Param::Fen]
            }
            Function::Key => &[Param::Fen],
        }
    }

    fn returns(self) -> DataType {
        match self {
            Function::Reaches => DataType::Boolean,
            Function::Key => DataType::Int64,
            _ => DataType::Utf8,
        }
    }

    /// `chess_fen_at(moves, plies, start_fen, ply)`.
    fn usage(self) -> String {
        let params: Vec<_> = self.params().iter().map(|p| p.name()).collect();
        format!("{}({})", self.name(), params.join(", "))
    }
}

/// One of the functions as a DataFusion scalar function.
#[derive(Debug, PartialEq, Eq, Hash)]
pub(crate) struct ChessUdf {
    function: Function,
    signature: Signature,
}

impl ChessUdf {
    pub(crate) fn udf(function: Function) -> ScalarUDF {
        ScalarUDF::new_from_impl(ChessUdf {
            function,
            signature: Signature::user_defined(Volatility::Immutable),
        })
    }

    /// `chess_uci`, `chess_san`: each game's mainline as text.
    fn game_texts(&self, arrays: &[ArrayRef]) -> Result<ArrayRef> {
        let mut starts = Starts::default();
        let mut out = StringBuilder::new();
        let mut text = String::new();
        for (row, game) in games(arrays)?.enumerate() {
            let Some(game) = game else {
                out.append_null();
                continue;
            };
            text.clear();
            open(&mut starts, game)
                .and_then(|replay| match self.function {
                    Function::Uci => replay.write_uci(&mut text),
                    _ => replay.write_san(&mut text),
                })
                .map_err(|e| self.fail(row, e))?;
            out.append_value(&text);
        }
        Ok(Arc::new(out.finish()))
    }

    /// `chess_fen_at`, `chess_move_at`: the FEN or the move at a ply of each game.
    fn texts_at_ply(&self, arrays: &[ArrayRef]) -> Result<ArrayRef> {
        let mut starts = Starts::default();
        let mut out = StringBuilder::new();
        let plies = arrays.get(3).map(ints).transpose()?.into_iter().flatten();
        for (row, (game, ply)) in games(arrays)?.zip(plies).enumerate() {
            let value = match (game, ply) {
                (Some(game), Some(ply)) => open(&mut starts, game)
                    .and_then(|replay| match self.function {
                        Function::FenAt => replay.fen_at(ply),
                        _ => replay.move_at(ply).map(|m| m.map(|m| m.to_string())),
                    })
                    .map_err(|e| self.fail(row, e))?,
                _ => None,
            };
            out.append_option(value);
        }
        Ok(Arc::new(out.finish()))
    }

    /// `chess_reaches`, `chess_next_move`: whether each game reaches a position, and its move there.
    fn searches(&self, arrays: &[ArrayRef]) -> Result<ArrayRef> {
        let mut starts = Starts::default();
        let mut targets = Targets::default();
        let fens = arrays.get(3).map(texts).transpose()?.into_iter().flatten();
        let mut found = BooleanBuilder::new();
        let mut moves = StringBuilder::new();
        for (row, (game, fen)) in games(arrays)?.zip(fens).enumerate() {
            let (Some(game), Some(fen)) = (game, fen) else {
                found.append_null();
                moves.append_null();
                continue;
            };
            let target = targets.get(fen).map_err(|e| self.fail(row, format_args!("fen: {e}")))?;
            let replay = open(&mut starts, game).map_err(|e| self.fail(row, e))?;
            if self.function == Function::Reaches {
                found.append_value(replay.reaches(&target).map_err(|e| self.fail(row, e))?);
            } else {
                let m = replay.next_move_from(&target).map_err(|e| self.fail(row, e))?;
                moves.append_option(m.map(|m| m.to_string()));
            }
        }
        Ok(match self.function {
            Function::Reaches => Arc::new(found.finish()),
            _ => Arc::new(moves.finish()),
        })
    }

    /// `chess_outcome`: how each game's moves ended it by rule.
    fn outcomes(&self, arrays: &[ArrayRef]) -> Result<ArrayRef> {
        let mut starts = Starts::default();
        let mut out = StringBuilder::new();
        for (row, game) in games(arrays)?.enumerate() {
            let outcome = match game {
                Some(game) => open(&mut starts, game)
                    .and_then(Replay::outcome)
                    .map_err(|e| self.fail(row, e))?,
                None => None,
            };
            out.append_option(outcome.map(|o| o.to_string()));
        }
        Ok(Arc::new(out.finish()))
    }

    /// `chess_key`: the Polyglot key of each FEN.
    fn keys(&self, arrays: &[ArrayRef]) -> Result<ArrayRef> {
        let mut out = Int64Builder::new();
        let mut targets = Targets::default();
        let fens = arrays.first().map(texts).transpose()?.into_iter().flatten();
        for (row, fen) in fens.enumerate() {
            let key = match fen {
                Some(fen) => Some(
                    targets.get(fen).map_err(|e| self.fail(row, format_args!("fen: {e}")))?.key,
                ),
                None => None,
            };
            // Signed, as the `keys` column stores it.
            out.append_option(key.map(|k| k as i64));
        }
        Ok(Arc::new(out.finish()))
    }

    fn fail(&self, row: usize, e: impl core::fmt::Display) -> DataFusionError {
        DataFusionError::Execution(format!("{}: row {row} of the batch: {e}", self.function.name()))
    }
}

/// A column of bytes, whichever Arrow type holds it.
fn bytes(array: &ArrayRef) -> Result<Box<dyn Iterator<Item = Option<&[u8]>> + '_>> {
    Ok(match array.data_type() {
        DataType::Binary => Box::new(array.as_binary::<i32>().iter()),
        DataType::LargeBinary => Box::new(array.as_binary::<i64>().iter()),
        DataType::BinaryView => Box::new(array.as_binary_view().iter()),
        other => return exec_err!("expected a binary column, got {other}"),
    })
}

/// A column of text, whichever Arrow type holds it.
fn texts(array: &ArrayRef) -> Result<Box<dyn Iterator<Item = Option<&str>> + '_>> {
    Ok(match array.data_type() {
        DataType::Utf8 => Box::new(array.as_string::<i32>().iter()),
        DataType::LargeUtf8 => Box::new(array.as_string::<i64>().iter()),
        DataType::Utf8View => Box::new(array.as_string_view().iter()),
        // A NULL literal that was not coerced.
        DataType::Null => Box::new(core::iter::repeat_n(None, array.len())),
        other => return exec_err!("expected a text column, got {other}"),
    })
}

/// A column of integers (coerced to Int64).
fn ints(array: &ArrayRef) -> Result<Box<dyn Iterator<Item = Option<i64>> + '_>> {
    match array.as_primitive_opt::<Int64Type>() {
        Some(a) => Ok(Box::new(a.iter())),
        None if *array.data_type() == DataType::Null => {
            Ok(Box::new(core::iter::repeat_n(None, array.len())))
        }
        None => exec_err!("expected an integer column, got {}", array.data_type()),
    }
}

/// A game's columns in one row: `None` when `moves` or `plies` is NULL.
type GameRow<'a> = Option<(&'a [u8], i64, Option<&'a str>)>;

fn games(arrays: &[ArrayRef]) -> Result<impl Iterator<Item = GameRow<'_>>> {
    let [moves, plies, start, ..] = arrays else {
        return exec_err!("a game needs its moves, plies and start_fen columns");
    };
    Ok(bytes(moves)?.zip(ints(plies)?).zip(texts(start)?).map(|((m, p), s)| Some((m?, p?, s))))
}

/// The replay of a game's row.
fn open<'a>(
    starts: &mut Starts,
    (moves, plies, start): (&'a [u8], i64, Option<&str>),
) -> Result<Replay<'a>, GameError> {
    Replay::new(moves, plies, starts.get(start)?)
}

/// The searched positions of a column of FENs, the last one kept (a literal repeats it).
#[derive(Default)]
struct Targets {
    last: Option<(String, Target)>,
}

impl Targets {
    fn get(&mut self, fen: &str) -> Result<Target, chessbits_notation::fen::FenError> {
        if let Some((last, target)) = &self.last {
            if last == fen {
                return Ok(*target);
            }
        }
        let target = Target::new(fen)?;
        self.last = Some((fen.to_owned(), target));
        Ok(target)
    }
}

impl ScalarUDFImpl for ChessUdf {
    fn name(&self) -> &str {
        self.function.name()
    }

    fn signature(&self) -> &Signature {
        &self.signature
    }

    fn return_type(&self, _arg_types: &[DataType]) -> Result<DataType> {
        Ok(self.function.returns())
    }

    fn coerce_types(&self, arg_types: &[DataType]) -> Result<Vec<DataType>> {
        let params = self.function.params();
        if arg_types.len() != params.len() {
            return plan_err!(
                "{} takes {} arguments, got {}: call it as {}",
                self.function.name(),
                params.len(),
                arg_types.len(),
                self.function.usage()
            );
        }
        params
            .iter()
            .zip(arg_types)
            .enumerate()
            .map(|(i, (param, given))| match param.coerce(given) {
                Some(t) => Ok(t),
                None => plan_err!(
                    "{}: argument {} ({}) cannot be {given}: call it as {}",
                    self.function.name(),
                    i + 1,
                    param.name(),
                    self.function.usage()
                ),
            })
            .collect()
    }

    fn invoke_with_args(&self, args: ScalarFunctionArgs) -> Result<ColumnarValue> {
        // Constants only (a literal call): one row, answered as a constant.
        let constant = args.args.iter().all(|a| matches!(a, ColumnarValue::Scalar(_)));
        let arrays = ColumnarValue::values_to_arrays(&args.args)?;
        let rows = arrays.first().map_or(0, |a| a.len());
        if arrays.len() != self.function.params().len() || arrays.iter().any(|a| a.len() != rows) {
            return exec_err!(
                "{}: wrong arguments; call it as {}",
                self.name(),
                self.function.usage()
            );
        }
        let result: ArrayRef = match self.function {
            Function::Uci | Function::San => self.game_texts(&arrays)?,
            Function::FenAt | Function::MoveAt => self.texts_at_ply(&arrays)?,
            Function::Reaches | Function::NextMove => self.searches(&arrays)?,
            Function::Outcome => self.outcomes(&arrays)?,
            Function::Key => self.keys(&arrays)?,
        };
        if constant {
            return Ok(ColumnarValue::Scalar(ScalarValue::try_from_array(&result, 0)?));
        }
        Ok(ColumnarValue::Array(result))
    }
}
