//! The board drawn as text and SVG, read from a placement, so that a board set up piece by
//! piece draws before it is a legal position.

use chessbits_bitboard::Square;

use crate::pieces::Piece;

/// The diagram in figurines, as python-chess's `unicode()`: ranks 8 to 1 (1 to 8 and files
/// h to a with `orientation=False`), `empty_square` for an empty square.
pub(crate) fn unicode(
    board: &chessbits_state::Board,
    invert_color: bool,
    borders: bool,
    empty_square: &str,
    orientation: bool,
) -> String {
    let mut rows = Vec::with_capacity(8);
    for r in 0..8u8 {
        let rank = if orientation { 7 - r } else { r };
        let mut row: Vec<String> = Vec::with_capacity(8);
        for f in 0..8u8 {
            let file = if orientation { f } else { 7 - f };
            let sq = Square::new(u32::from(rank * 8 + file));
            row.push(board.piece_at(sq).map_or_else(
                || empty_square.to_owned(),
                |inner| Piece { inner }.unicode_symbol(invert_color),
            ));
        }
        if borders {
            rows.push(RULE.to_owned());
            rows.push(format!("{} |{}|", rank + 1, row.join("|")));
        } else {
            rows.push(row.join(" "));
        }
    }
    if borders {
        rows.push(RULE.to_owned());
        let files: Vec<char> =
            (0..8u8).map(|f| char::from(b'a' + if orientation { f } else { 7 - f })).collect();
        let files: Vec<String> = files.iter().map(char::to_string).collect();
        rows.push(format!("   {}", files.join(" ")));
    }
    rows.join("\n")
}

/// The python-chess diagram: ranks 8 to 1, `.` for an empty square, letters spaced.
pub(crate) fn diagram(board: &chessbits_state::Board) -> String {
    let mut out = String::with_capacity(128);
    for rank in (0..8).rev() {
        for file in 0..8 {
            let sq = Square::new(rank * 8 + file);
            out.push(board.piece_at(sq).map_or('.', |p| p.char()));
            out.push(if file == 7 { '\n' } else { ' ' });
        }
    }
    out.pop();
    out
}

/// The line between ranks of `Board.unicode(borders=True)`.
const RULE: &str = "  -----------------";

/// The font list of the figurines.
const FONTS: &str = "DejaVu Sans, Segoe UI Symbol, sans-serif";

/// A piece as an SVG picture: its figurine on a 45-pixel square, as python-chess's
/// `chess.svg.piece` sizes it.
pub(crate) fn piece_svg(piece: chessbits_bitboard::Piece) -> String {
    let glyph = Piece { inner: piece }.unicode_symbol(false);
    format!(
        r#"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 45 45" width="45" height="45"><text x="22" y="37" font-size="38" text-anchor="middle" font-family="{FONTS}">{glyph}</text></svg>"#
    )
}

/// The board as an SVG picture: 45-pixel squares in lichess's brown, figurines in black
/// outline, a cross on each square of `marked` (python-chess's `squares=`), files and ranks
/// written on the edge squares.
pub(crate) fn svg(board: &chessbits_state::Board, marked: chessbits_bitboard::Bitboard) -> String {
    use std::fmt::Write as _;
    let mut out = String::with_capacity(8192);
    out.push_str(r#"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 360 360" width="360" height="360">"#);
    for rank in 0..8u8 {
        for file in 0..8u8 {
            let (x, y) = (u32::from(file) * 45, u32::from(7 - rank) * 45);
            let fill = if (rank + file) % 2 == 0 { "#b58863" } else { "#f0d9b5" };
            let _ = write!(out, r#"<rect x="{x}" y="{y}" width="45" height="45" fill="{fill}"/>"#);
            let square = Square::new(u32::from(rank * 8 + file));
            if marked.contains(square) {
                let (x1, y1, x2, y2) = (x + 10, y + 10, x + 35, y + 35);
                let _ = write!(
                    out,
                    r##"<path d="M{x1},{y1} L{x2},{y2} M{x2},{y1} L{x1},{y2}" stroke="#1f1f1f" stroke-width="3" opacity="0.6"/>"##
                );
            }
            if let Some(piece) = board.piece_at(square) {
                let glyph = Piece { inner: piece }.unicode_symbol(false);
                let _ = write!(
                    out,
                    r#"<text x="{}" y="{}" font-size="38" text-anchor="middle" font-family="{FONTS}">{glyph}</text>"#,
                    x + 22,
                    y + 37
                );
            }
        }
    }
    for i in 0..8u8 {
        let _ = write!(
            out,
            r##"<text x="{}" y="357" font-size="9" fill="#555">{}</text><text x="1" y="{}" font-size="9" fill="#555">{}</text>"##,
            u32::from(i) * 45 + 37,
            char::from(b'a' + i),
            u32::from(7 - i) * 45 + 10,
            i + 1
        );
    }
    out.push_str("</svg>");
    out
}
