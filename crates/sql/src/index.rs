//! Table functions over position indexes (`.cbx`, `chessbits index build`):
//! `chess_explore(INDEXES, position [, filter])` and `chess_find(INDEXES, position [, limit]
//! [, filter])`.
//!
//! `INDEXES` is a path, or a path whose file name holds `*` wildcards (`'2025-*.cbx'`): every
//! match, in name order, is a shard, and the answers are merged. The position is a FEN or
//! `'startpos'` followed by optional UCI moves (`'startpos e2e4 e7e5'`). The result is a
//! table with the columns of `chessbits index find` / `explore` (`chessbits_arrow::index`),
//! which DataFusion joins with the exported games like any other.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use chessbits_arrow::index::{explore_batch, find_batch};
use chessbits_index::{explore_shards, position_after, Filter, Index};
use chessbits_notation::fen::parse_position;
use chessbits_state::Position;
use datafusion::catalog::{MemTable, TableFunctionArgs, TableFunctionImpl, TableProvider};
use datafusion::common::{plan_err, DataFusionError, Result, ScalarValue};
use datafusion::logical_expr::Expr;

/// `chess_explore(INDEXES, position [, filter])`: the moves played from the position.
#[derive(Debug)]
pub(crate) struct ChessExplore;

/// `chess_find(INDEXES, position [, limit] [, filter])`: the games that reach the position.
#[derive(Debug)]
pub(crate) struct ChessFind;

impl TableFunctionImpl for ChessExplore {
    fn call_with_args(&self, args: TableFunctionArgs) -> Result<Arc<dyn TableProvider>> {
        let Call { indexes, pos, limit, filter } = arguments("chess_explore", args.exprs(), false)?;
        debug_assert!(limit.is_none());
        let rows = explore_shards(&indexes, &pos, &filter)
            .map_err(|e| DataFusionError::Execution(format!("chess_explore: {e}")))?;
        let batch = explore_batch(&pos, &rows)?;
        Ok(Arc::new(MemTable::try_new(batch.schema(), vec![vec![batch]])?))
    }
}

impl TableFunctionImpl for ChessFind {
    fn call_with_args(&self, args: TableFunctionArgs) -> Result<Arc<dyn TableProvider>> {
        let Call { indexes, pos, limit, filter } = arguments("chess_find", args.exprs(), true)?;
        let mut found = Vec::new();
        for index in &indexes {
            let left = limit.map(|l| l.saturating_sub(found.len()));
            if left == Some(0) {
                break;
            }
            let games = index
                .find(&pos, &filter, left)
                .map_err(|e| DataFusionError::Execution(format!("chess_find: {e}")))?;
            found.extend(games);
        }
        let batch = find_batch(&found)?;
        Ok(Arc::new(MemTable::try_new(batch.schema(), vec![vec![batch]])?))
    }
}

/// The arguments of a call.
struct Call {
    indexes: Vec<Index>,
    pos: Position,
    /// `chess_find`'s limit.
    limit: Option<usize>,
    filter: Filter,
}

/// The indexes, the position, (for `chess_find`) the limit and the filter of a call: the
/// filter is the last argument where it is a string, in `Filter::from_terms`'s terms
/// (`'speed=blitz since=2025-01'`).
fn arguments(name: &str, exprs: &[Expr], limit: bool) -> Result<Call> {
    let text = |i: usize| match exprs.get(i) {
        Some(Expr::Literal(ScalarValue::Utf8(Some(s)) | ScalarValue::LargeUtf8(Some(s)), _)) => {
            Ok(s.clone())
        }
        _ => plan_err!("{name}: argument {} must be a string literal", i + 1),
    };
    let usage = if limit {
        "(indexes, position [, limit] [, filter])"
    } else {
        "(indexes, position [, filter])"
    };
    let most = if limit { 4 } else { 3 };
    if exprs.len() < 2 || exprs.len() > most {
        return plan_err!("{name} takes {usage}");
    }
    let paths = expand(&text(0)?).map_err(|e| DataFusionError::Plan(format!("{name}: {e}")))?;
    let mut indexes = Vec::with_capacity(paths.len());
    for path in &paths {
        let index = Index::open(path)
            .map_err(|e| DataFusionError::Execution(format!("{name}: {}: {e}", path.display())))?;
        indexes.push(index);
    }
    let pos = position(&text(1)?).map_err(|e| DataFusionError::Plan(format!("{name}: {e}")))?;
    let (mut found, mut filter) = (None, Filter::default());
    let last = exprs.len() - 1;
    for (i, expr) in exprs.iter().enumerate().skip(2) {
        match expr {
            Expr::Literal(ScalarValue::Int64(Some(n)), _) if limit && i == 2 && *n >= 0 => {
                found = Some(*n as usize);
            }
            Expr::Literal(ScalarValue::Utf8(Some(_)) | ScalarValue::LargeUtf8(Some(_)), _)
                if i == last =>
            {
                filter = Filter::from_terms(&text(i)?)
                    .map_err(|e| DataFusionError::Plan(format!("{name}: filter: {e}")))?;
            }
            _ if limit && i == 2 => {
                return plan_err!(
                    "{name}: argument 3 must be a non-negative integer literal (the limit) or \
                     a string literal (the filter)"
                );
            }
            _ => {
                return plan_err!(
                    "{name}: argument {} must be a string literal (the filter)",
                    i + 1
                )
            }
        }
    }
    Ok(Call { indexes, pos, limit: found, filter })
}

/// A FEN, or `startpos` and UCI moves.
fn position(text: &str) -> Result<Position, String> {
    let text = text.trim();
    match text.strip_prefix("startpos") {
        Some(moves) => position_after(moves),
        None => parse_position(text).map_err(|e| e.to_string()),
    }
}

/// The files a path names: itself, or the matches of the `*` wildcards in its file name, in
/// name order.
fn expand(pattern: &str) -> Result<Vec<PathBuf>, String> {
    let path = Path::new(pattern);
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
    if !name.contains('*') {
        return Ok(vec![path.to_path_buf()]);
    }
    let dir = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let entries = std::fs::read_dir(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let mut paths: Vec<PathBuf> = entries
        .filter_map(|e| e.ok())
        .filter(|e| e.file_name().to_str().is_some_and(|n| matches(name, n)))
        .map(|e| e.path())
        .collect();
    paths.sort();
    if paths.is_empty() {
        return Err(format!("no file matches {pattern:?}"));
    }
    Ok(paths)
}

/// Whether `name` matches `pattern`, whose `*` stand for any run of characters.
fn matches(pattern: &str, name: &str) -> bool {
    let parts: Vec<&str> = pattern.split('*').collect();
    let (first, last) = (parts[0], parts[parts.len() - 1]);
    if !name.starts_with(first) || name.len() < first.len() + last.len() || !name.ends_with(last) {
        return false;
    }
    let mut rest = &name[first.len()..name.len() - last.len()];
    for part in &parts[1..parts.len() - 1] {
        match rest.find(part) {
            Some(at) => rest = &rest[at + part.len()..],
            None => return false,
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wildcards() {
        assert!(matches("2025-*.cbx", "2025-01.cbx"));
        assert!(matches("*.cbx", "a.cbx"));
        assert!(matches("a*b*c", "aXbYc"));
        assert!(!matches("2025-*.cbx", "2024-01.cbx"));
        assert!(!matches("a*a", "a"));
        assert!(matches("*", "anything"));
    }

    #[test]
    fn positions() {
        assert_eq!(position("startpos").unwrap(), Position::new());
        assert_eq!(position("startpos e2e4").unwrap(), position_after("e2e4").unwrap());
        assert!(position("startpos e2e5").is_err());
        assert!(position("not a fen").is_err());
    }
}
