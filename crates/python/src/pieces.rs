//! `chessbits.Piece` and `chessbits.SquareSet`: python-chess's types for a piece and a set of
//! squares, so that `board.piece_at(sq).piece_type` and `for sq in board.pieces(...)` read as
//! they do there.

use chessbits_bitboard::{Bitboard, Color, Piece as RustPiece, Role, Square};
use pyo3::exceptions::{PyIndexError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyType;
use pyo3::Borrowed;

/// A piece as python-chess's `Piece`: `piece_type` 1 (pawn) to 6 (king), `color` `True` for
/// white. It equals a python-chess `chess.Piece` of the same type and color, and hashes as
/// one does.
#[pyclass(module = "chessbits", frozen)]
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    pub(crate) inner: RustPiece,
}

/// python-chess's piece type number of `role`: 1 pawn .. 6 king.
pub(crate) fn piece_type(role: Role) -> u8 {
    role as u8 + 1
}

/// The role of python-chess's piece type number, checked.
pub(crate) fn role_of(piece_type: i64) -> PyResult<Role> {
    u8::try_from(piece_type)
        .ok()
        .filter(|t| (1..=6).contains(t))
        .and_then(|t| Role::from_index(t - 1))
        .ok_or_else(|| {
            PyValueError::new_err(format!(
                "piece_type must be 1 (PAWN) to 6 (KING), not {piece_type}"
            ))
        })
}

/// The color of python-chess's `WHITE` (`True`) or `BLACK` (`False`).
pub(crate) fn color_of(white: bool) -> Color {
    if white {
        Color::White
    } else {
        Color::Black
    }
}

/// A `color` argument as python-chess takes one: `WHITE`/`BLACK` (`True`/`False`, NumPy's
/// booleans too) or `1`/`0`.
#[derive(Copy, Clone, Debug)]
pub(crate) struct ColorArg(pub(crate) Color);

impl<'a, 'py> FromPyObject<'a, 'py> for ColorArg {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<ColorArg> {
        if let Ok(white) = obj.extract::<bool>() {
            return Ok(ColorArg(color_of(white)));
        }
        match obj.extract::<i64>() {
            Ok(1) => Ok(ColorArg(Color::White)),
            Ok(0) => Ok(ColorArg(Color::Black)),
            _ => Err(PyTypeError::new_err(format!(
                "color must be WHITE or BLACK (True or False, or 1 or 0), not {}",
                obj.repr().map_or_else(|_| "?".to_owned(), |r| r.to_string())
            ))),
        }
    }
}

/// A square index from Python, checked: `IndexError` outside 0..=63, as python-chess's lists
/// of squares raise.
pub(crate) fn square_index(index: i64) -> PyResult<Square> {
    u8::try_from(index)
        .ok()
        .and_then(Square::from_index)
        .ok_or_else(|| PyIndexError::new_err(format!("square {index} is not in 0..=63")))
}

/// The figurine of `piece`, white or black.
fn figurine(piece: RustPiece) -> char {
    let white = ['♙', '♘', '♗', '♖', '♕', '♔'];
    let black = ['♟', '♞', '♝', '♜', '♛', '♚'];
    let table = if piece.color == Color::White { white } else { black };
    table[piece.role as usize]
}

#[pymethods]
impl Piece {
    /// A piece of `piece_type` (1 pawn .. 6 king) and `color` (`True` white).
    #[new]
    fn new(piece_type: i64, color: ColorArg) -> PyResult<Piece> {
        Ok(Piece { inner: RustPiece { role: role_of(piece_type)?, color: color.0 } })
    }

    /// The piece of a FEN letter: `P` white pawn .. `k` black king. Raises `ValueError` for
    /// any other text.
    #[classmethod]
    fn from_symbol(_cls: &Bound<'_, PyType>, symbol: &str) -> PyResult<Piece> {
        let mut chars = symbol.chars();
        match (chars.next(), chars.next()) {
            (Some(c), None) => RustPiece::from_char(c)
                .map(|inner| Piece { inner })
                .ok_or_else(|| PyValueError::new_err(format!("invalid piece symbol {symbol:?}"))),
            _ => Err(PyValueError::new_err(format!("invalid piece symbol {symbol:?}"))),
        }
    }

    /// 1 (pawn) to 6 (king), as python-chess's `PAWN` .. `KING`.
    #[getter]
    fn piece_type(&self) -> u8 {
        piece_type(self.inner.role)
    }

    /// `True` for white, `False` for black.
    #[getter]
    fn color(&self) -> bool {
        self.inner.color == Color::White
    }

    /// The FEN letter: upper case for white.
    fn symbol(&self) -> String {
        self.inner.char().to_string()
    }

    /// The chess figurine (`♔` white king); `invert_color=True` draws the other color's.
    #[pyo3(signature = (*, invert_color=false))]
    pub(crate) fn unicode_symbol(&self, invert_color: bool) -> String {
        let mut piece = self.inner;
        if invert_color {
            piece.color = !piece.color;
        }
        figurine(piece).to_string()
    }

    /// An SVG drawing of the piece (its figurine on a 45-pixel square), which Jupyter shows
    /// as it does python-chess's.
    fn _repr_svg_(&self) -> String {
        crate::drawing::piece_svg(self.inner)
    }

    fn __str__(&self) -> String {
        self.symbol()
    }

    fn __repr__(&self) -> String {
        format!("Piece.from_symbol('{}')", self.inner.char())
    }

    /// Equal to a `chessbits.Piece` or a python-chess `chess.Piece` (any object with its
    /// `piece_type` and `color`) of the same type and color.
    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        if let Ok(other) = other.cast::<Piece>() {
            return other.get().inner == self.inner;
        }
        let attr = |name| other.getattr(name).ok();
        match (attr("piece_type"), attr("color")) {
            (Some(t), Some(c)) => {
                t.extract::<i64>().is_ok_and(|t| t == i64::from(self.piece_type()))
                    && c.extract::<ColorArg>().is_ok_and(|c| c.0 == self.inner.color)
            }
            _ => false,
        }
    }

    /// python-chess's hash of the piece (`piece_type - 1` for white, `+ 5` for black), so
    /// that either library's piece finds the other's in a set or a dict.
    fn __hash__(&self) -> i64 {
        i64::from(self.piece_type()) + if self.color() { -1 } else { 5 }
    }
}

/// A set of squares as python-chess's `SquareSet`: iterable in ascending order, with `len`,
/// `in`, `int()` (the 64-bit mask, a1 the lowest bit) and equality with another set or an
/// int. It changes in place as python-chess's does (`add`, `discard`, `|=`, ...), so, like
/// python-chess's, it is not hashable: `int(squares)` is a key.
#[pyclass(module = "chessbits")]
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct SquareSet {
    /// The squares as a 64-bit mask, bit 0 = a1 (python-chess's `mask` attribute).
    #[pyo3(get, set)]
    pub(crate) mask: u64,
}

impl From<Bitboard> for SquareSet {
    fn from(bb: Bitboard) -> Self {
        SquareSet { mask: bb.0 }
    }
}

/// Squares as python-chess's `SquareSet(...)` takes them: a `SquareSet` (either library's),
/// an int mask (cut to 64 bits, so `-1` is every square), or an iterable of squares.
#[derive(Copy, Clone, Debug)]
pub(crate) struct Mask(pub(crate) u64);

impl<'a, 'py> FromPyObject<'a, 'py> for Mask {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Mask> {
        if let Ok(set) = obj.cast::<SquareSet>() {
            return Ok(Mask(set.borrow().mask));
        }
        if obj.is_instance_of::<pyo3::types::PyInt>() || obj.hasattr("__int__")? {
            let int = obj.call_method0("__int__")?;
            return Ok(Mask(int.call_method1("__and__", (u64::MAX,))?.extract()?));
        }
        let mut mask = 0u64;
        let squares = obj.try_iter().map_err(|_| {
            PyTypeError::new_err(format!(
                "squares must be a SquareSet, an int mask or an iterable of squares, not {}",
                obj.get_type().name().map_or_else(|_| "?".to_owned(), |n| n.to_string())
            ))
        })?;
        for square in squares {
            mask |= 1 << square_index(square?.extract::<i64>()?)? as u32;
        }
        Ok(Mask(mask))
    }
}

/// The subsets of a mask, one at a time, by the carry-rippler trick: the next subset of
/// `mask` after `s` is `(s - mask) & mask`, and the empty set after the full one ends it.
#[pyclass(module = "chessbits")]
pub(crate) struct Subsets {
    mask: u64,
    next: Option<u64>,
}

#[pymethods]
impl Subsets {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__(&mut self) -> Option<u64> {
        let subset = self.next?;
        let following = subset.wrapping_sub(self.mask) & self.mask;
        self.next = (following != 0).then_some(following);
        Some(subset)
    }
}

impl SquareSet {
    /// The squares, ascending.
    fn squares(&self) -> Vec<u8> {
        Bitboard(self.mask).into_iter().map(|sq| sq as u8).collect()
    }
}

impl Mask {
    fn bits(&self) -> u64 {
        self.0
    }
}

#[pymethods]
impl SquareSet {
    /// The squares of `mask` (an int, bit 0 = a1, or another `SquareSet`; empty by default).
    #[new]
    #[pyo3(signature = (mask=None))]
    fn new(mask: Option<Mask>) -> SquareSet {
        SquareSet { mask: mask.map_or(0, |m| m.bits()) }
    }

    /// 64 booleans, `True` where the square is in the set, a1 first (python-chess's
    /// `tolist()`).
    fn tolist(&self) -> Vec<bool> {
        (0..64).map(|sq| self.mask >> sq & 1 == 1).collect()
    }

    fn __iter__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, pyo3::types::PyIterator>> {
        pyo3::types::PyList::new(py, self.squares())?.try_iter()
    }

    fn __len__(&self) -> usize {
        self.mask.count_ones() as usize
    }

    fn __bool__(&self) -> bool {
        self.mask != 0
    }

    fn __int__(&self) -> u64 {
        self.mask
    }

    fn __index__(&self) -> u64 {
        self.mask
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other.extract::<Mask>().is_ok_and(|m| m.bits() == self.mask)
    }

    fn __contains__(&self, square: i64) -> bool {
        (0..64).contains(&square) && self.mask >> square & 1 == 1
    }

    fn __and__(&self, other: Mask) -> SquareSet {
        SquareSet { mask: self.mask & other.bits() }
    }

    fn __or__(&self, other: Mask) -> SquareSet {
        SquareSet { mask: self.mask | other.bits() }
    }

    fn __xor__(&self, other: Mask) -> SquareSet {
        SquareSet { mask: self.mask ^ other.bits() }
    }

    fn __invert__(&self) -> SquareSet {
        SquareSet { mask: !self.mask }
    }

    fn __sub__(&self, other: Mask) -> SquareSet {
        SquareSet { mask: self.mask & !other.bits() }
    }

    /// The squares moved `shift` ranks and files up the board (bit `i` to bit `i + shift`),
    /// those pushed off dropped.
    fn __lshift__(&self, shift: &Bound<'_, PyAny>) -> PyResult<SquareSet> {
        let shift = ShiftCount::of(shift)?;
        Ok(SquareSet { mask: self.mask.checked_shl(shift.0).unwrap_or(0) })
    }

    /// The squares moved down (bit `i` to bit `i - shift`), those pushed off dropped.
    fn __rshift__(&self, shift: &Bound<'_, PyAny>) -> PyResult<SquareSet> {
        let shift = ShiftCount::of(shift)?;
        Ok(SquareSet { mask: self.mask.checked_shr(shift.0).unwrap_or(0) })
    }

    /// The squares, descending.
    fn __reversed__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, pyo3::types::PyIterator>> {
        let mut squares = self.squares();
        squares.reverse();
        pyo3::types::PyList::new(py, squares)?.try_iter()
    }

    // The in-place changes take the set as `slf` and borrow it only once their argument is
    // read: the argument may be the set itself (`s |= s`), which a borrow held during its
    // reading would refuse.
    fn __ior__(slf: &Bound<'_, Self>, other: Mask) {
        slf.borrow_mut().mask |= other.bits();
    }

    fn __iand__(slf: &Bound<'_, Self>, other: Mask) {
        slf.borrow_mut().mask &= other.bits();
    }

    fn __ixor__(slf: &Bound<'_, Self>, other: Mask) {
        slf.borrow_mut().mask ^= other.bits();
    }

    fn __isub__(slf: &Bound<'_, Self>, other: Mask) {
        slf.borrow_mut().mask &= !other.bits();
    }

    fn __ilshift__(&mut self, shift: &Bound<'_, PyAny>) -> PyResult<()> {
        let shift = ShiftCount::of(shift)?;
        self.mask = self.mask.checked_shl(shift.0).unwrap_or(0);
        Ok(())
    }

    fn __irshift__(&mut self, shift: &Bound<'_, PyAny>) -> PyResult<()> {
        let shift = ShiftCount::of(shift)?;
        self.mask = self.mask.checked_shr(shift.0).unwrap_or(0);
        Ok(())
    }

    /// Adds `square`.
    fn add(&mut self, square: i64) -> PyResult<()> {
        self.mask |= 1 << square_index(square)? as u32;
        Ok(())
    }

    /// Removes `square` if it is in the set.
    fn discard(&mut self, square: i64) -> PyResult<()> {
        self.mask &= !(1 << square_index(square)? as u32);
        Ok(())
    }

    /// Removes `square`; raises `KeyError` if it is not in the set.
    fn remove(&mut self, square: i64) -> PyResult<()> {
        let bit = 1 << square_index(square)? as u32;
        if self.mask & bit == 0 {
            return Err(pyo3::exceptions::PyKeyError::new_err(square));
        }
        self.mask &= !bit;
        Ok(())
    }

    /// Removes and returns the lowest square; raises `KeyError` if the set is empty.
    fn pop(&mut self) -> PyResult<u8> {
        if self.mask == 0 {
            return Err(pyo3::exceptions::PyKeyError::new_err("pop from empty SquareSet"));
        }
        let square = self.mask.trailing_zeros() as u8;
        self.mask &= self.mask - 1;
        Ok(square)
    }

    /// Removes every square.
    fn clear(&mut self) {
        self.mask = 0;
    }

    /// A new set of the same squares.
    fn copy(&self) -> SquareSet {
        *self
    }

    /// Adds the squares of each of `others`.
    #[pyo3(signature = (*others))]
    fn update(slf: &Bound<'_, Self>, others: Vec<Mask>) {
        let mut set = slf.borrow_mut();
        set.mask = others.iter().fold(set.mask, |mask, other| mask | other.bits());
    }

    /// Keeps the squares that are in each of `others`.
    #[pyo3(signature = (*others))]
    fn intersection_update(slf: &Bound<'_, Self>, others: Vec<Mask>) {
        let mut set = slf.borrow_mut();
        set.mask = others.iter().fold(set.mask, |mask, other| mask & other.bits());
    }

    /// Removes the squares of `other`.
    fn difference_update(slf: &Bound<'_, Self>, other: Mask) {
        SquareSet::__isub__(slf, other);
    }

    /// Keeps the squares in exactly one of the set and `other`.
    fn symmetric_difference_update(slf: &Bound<'_, Self>, other: Mask) {
        SquareSet::__ixor__(slf, other);
    }

    /// The squares of the set or `other` (`|`).
    fn union(&self, other: Mask) -> SquareSet {
        self.__or__(other)
    }

    /// The squares of both (`&`).
    fn intersection(&self, other: Mask) -> SquareSet {
        self.__and__(other)
    }

    /// The squares of the set not in `other` (`-`).
    fn difference(&self, other: Mask) -> SquareSet {
        self.__sub__(other)
    }

    /// The squares in exactly one of the two (`^`).
    fn symmetric_difference(&self, other: Mask) -> SquareSet {
        self.__xor__(other)
    }

    /// The set of one square.
    #[classmethod]
    fn from_square(_cls: &Bound<'_, PyType>, square: i64) -> PyResult<SquareSet> {
        Ok(SquareSet { mask: 1 << square_index(square)? as u32 })
    }

    /// The squares strictly between `a` and `b` on their rank, file or diagonal (none if
    /// they share no line), as python-chess's `SquareSet.between`.
    #[classmethod]
    fn between(_cls: &Bound<'_, PyType>, a: i64, b: i64) -> PyResult<SquareSet> {
        let (a, b) = (square_index(a)?, square_index(b)?);
        Ok(chessbits_bitboard::tables::between(a, b).into())
    }

    /// The whole line through `a` and `b`, edge to edge (none if they share no line), as
    /// python-chess's `SquareSet.ray`.
    #[classmethod]
    fn ray(_cls: &Bound<'_, PyType>, a: i64, b: i64) -> PyResult<SquareSet> {
        let (a, b) = (square_index(a)?, square_index(b)?);
        Ok(chessbits_bitboard::tables::line(a, b).into())
    }

    /// The set mirrored vertically (a1 to a8), as python-chess's `mirror()`.
    fn mirror(&self) -> SquareSet {
        SquareSet { mask: self.mask.swap_bytes() }
    }

    /// `True` if every square of the set is in `other`.
    fn issubset(&self, other: Mask) -> bool {
        self.mask & !other.bits() == 0
    }

    /// `True` if every square of `other` is in the set.
    fn issuperset(&self, other: Mask) -> bool {
        other.bits() & !self.mask == 0
    }

    /// `True` if the set and `other` share no square.
    fn isdisjoint(&self, other: Mask) -> bool {
        self.mask & other.bits() == 0
    }

    /// Every subset of the set as an int mask, the empty set first, 2 to the number of
    /// squares of them, computed as they are asked for (python-chess's `carry_rippler()`).
    fn carry_rippler(&self) -> Subsets {
        Subsets { mask: self.mask, next: Some(0) }
    }

    /// An SVG drawing of an empty board with the set's squares marked, which Jupyter shows
    /// as it does python-chess's.
    fn _repr_svg_(&self) -> String {
        crate::drawing::svg(&chessbits_state::Board::empty(), Bitboard(self.mask))
    }

    /// `SquareSet(0x0000_0000_0000_ff00)`, as python-chess writes it.
    fn __repr__(&self) -> String {
        let hex = format!("{:016x}", self.mask);
        let groups: Vec<&str> = (0..4).map(|i| &hex[4 * i..4 * i + 4]).collect();
        format!("SquareSet(0x{})", groups.join("_"))
    }

    /// The python-chess diagram: ranks 8 to 1, `1` for a square in the set, `.` for one out.
    fn __str__(&self) -> String {
        let mut out = String::with_capacity(128);
        for rank in (0..8).rev() {
            for file in 0..8 {
                out.push(if self.mask >> (rank * 8 + file) & 1 == 1 { '1' } else { '.' });
                out.push(if file == 7 { '\n' } else { ' ' });
            }
        }
        out.pop();
        out
    }
}

/// A piece argument: a chessbits `Piece`, or anything with python-chess's `piece_type` and
/// `color` (a `chess.Piece`).
pub(crate) struct PieceArg(pub(crate) RustPiece);

impl<'a, 'py> FromPyObject<'a, 'py> for PieceArg {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<PieceArg> {
        if let Ok(piece) = obj.cast::<Piece>() {
            return Ok(PieceArg(piece.get().inner));
        }
        if let (Ok(kind), Ok(color)) = (obj.getattr("piece_type"), obj.getattr("color")) {
            let role = role_of(kind.extract()?)?;
            let color = color.extract::<ColorArg>()?.0;
            return Ok(PieceArg(RustPiece { role, color }));
        }
        let kind = obj.get_type().name().map_or_else(|_| "?".to_owned(), |n| n.to_string());
        Err(PyTypeError::new_err(format!(
            "piece must be a chessbits.Piece or a chess.Piece, not {kind}"
        )))
    }
}

/// A shift count as Python takes one: any int of 0 or more (64 and beyond empty the set).
/// Read inside the operator, not as its argument: pyo3 turns an operand that fails to
/// convert into `NotImplemented`, so a negative count would raise `TypeError` instead of
/// Python's (and python-chess's) `ValueError`.
pub(crate) struct ShiftCount(u32);

impl ShiftCount {
    fn of(obj: &Bound<'_, PyAny>) -> PyResult<ShiftCount> {
        let int = obj
            .cast::<pyo3::types::PyInt>()
            .map_err(|_| PyTypeError::new_err("a shift count must be an int"))?;
        if int.lt(0)? {
            return Err(PyValueError::new_err("negative shift count"));
        }
        Ok(ShiftCount(int.extract::<u32>().unwrap_or(u32::MAX).min(64)))
    }
}
