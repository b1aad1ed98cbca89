"""Setting a board up piece by piece, as python-chess does (issue 44): ``Board(None)``,
``set_piece_at``, ``remove_piece_at``, ``clear``, ``set_board_fen``, ``set_castling_fen``,
``set_piece_map``, and the ``turn``, ``castling_rights``, ``ep_square`` and clock setters;
``status()`` with python-chess's flags. python-chess is the oracle over random edits."""

import pickle
import random

import pytest

import chessbits

chess = pytest.importorskip("chess")

STATUS_NAMES = [name for name in dir(chess) if name.startswith("STATUS_")]
# The squares castling rights are set on: corners, others of the back ranks.
BACK_RANKS = [0, 7, 56, 63, 1, 2, 6, 57, 58, 62]
PIECES = [None] + [(kind, color) for kind in range(1, 7) for color in (True, False)]


def too_much_material(board, color):
    """More promoted pieces (queens beyond one; rooks, bishops, knights beyond two) than
    missing pawns: python-chess plays on, chessbits does not and flags too many pieces."""
    count = lambda kind: len(board.pieces(kind, color))  # noqa: E731
    if count(chess.PAWN) > 8:
        return False
    promoted = sum(max(0, count(kind) - keep) for kind, keep in ((5, 1), (4, 2), (3, 2), (2, 2)))
    return count(chess.PAWN) + promoted > 8


def expected_status(board):
    status = int(board.status())
    if too_much_material(board, chess.WHITE):
        status |= chess.STATUS_TOO_MANY_WHITE_PIECES
    if too_much_material(board, chess.BLACK):
        status |= chess.STATUS_TOO_MANY_BLACK_PIECES
    return status


def uci_set(moves):
    return sorted(move.uci() for move in moves)


def compare(ours, theirs, counts):
    status = expected_status(theirs)
    assert ours.status() == status, (theirs.fen(), ours.status(), status)
    assert ours.is_valid() == (status == chess.STATUS_VALID)
    assert ours.board_fen() == theirs.board_fen()
    assert ours.turn == theirs.turn
    assert ours.ep_square == theirs.ep_square
    assert ours.castling_rights == theirs.castling_rights
    assert (ours.halfmove_clock, ours.fullmove_number) == (
        theirs.halfmove_clock,
        theirs.fullmove_number,
    )
    for color in (chess.WHITE, chess.BLACK):
        assert ours.has_kingside_castling_rights(color) == theirs.has_kingside_castling_rights(color)
        assert ours.has_queenside_castling_rights(color) == theirs.has_queenside_castling_rights(
            color
        )
    assert {sq: p.symbol() for sq, p in ours.piece_map().items()} == {
        sq: p.symbol() for sq, p in theirs.piece_map().items()
    }
    assert str(ours) == str(theirs)
    assert (ours.king(True), ours.king(False)) == (theirs.king(True), theirs.king(False))
    assert ours.chess960 == theirs.chess960
    assert ours.checkers_mask() == theirs.checkers_mask()
    # Attacks and pins read the placement alone: they answer on every board, two kings too.
    for square in (counts["valid"] * 7 % 64, counts["invalid"] * 13 % 64, chess.E2):
        for color in (chess.WHITE, chess.BLACK):
            assert ours.pin_mask(color, square) == theirs.pin_mask(color, square)
            assert ours.is_pinned(color, square) == theirs.is_pinned(color, square)
            assert ours.attackers_mask(color, square) == theirs.attackers_mask(color, square)
    kings_ok = not status & (
        chess.STATUS_NO_WHITE_KING
        | chess.STATUS_NO_BLACK_KING
        | chess.STATUS_TOO_MANY_KINGS
        | chess.STATUS_OPPOSITE_CHECK
        | chess.STATUS_TOO_MANY_WHITE_PIECES
        | chess.STATUS_TOO_MANY_BLACK_PIECES
        | chess.STATUS_TOO_MANY_WHITE_PAWNS
        | chess.STATUS_TOO_MANY_BLACK_PAWNS
    )
    if status == chess.STATUS_VALID:
        counts["valid"] += 1
        assert ours.fen() == theirs.fen()
        assert ours.fen(shredder=True) == theirs.fen(shredder=True)
        assert uci_set(ours.legal_moves) == uci_set(theirs.legal_moves)
    elif kings_ok:
        # Flawed but playable: the castling rights and en passant square python-chess plays
        # with. It also pushes a pawn on its first rank two squares, and takes en passant
        # on a square no double push left; chessbits does neither, so those are left out.
        counts["flawed"] += 1
        if not status & (chess.STATUS_PAWNS_ON_BACKRANK | chess.STATUS_INVALID_EP_SQUARE):
            assert ours.fen() == theirs.fen()
            assert uci_set(ours.legal_moves) == uci_set(theirs.legal_moves)
    else:
        counts["invalid"] += 1
        with pytest.raises(chessbits.PositionError, match="not a position moves can be played"):
            ours.legal_moves
        with pytest.raises(chessbits.PositionError):
            ours.push_uci("e2e4")
        # The castling field as python-chess writes it (X-FEN and Shredder-FEN), and the
        # en passant square where a pawn stands ready to take.
        assert ours.fen() == theirs.fen() or status & chess.STATUS_INVALID_EP_SQUARE
        assert ours.fen(shredder=True).split()[2] == theirs.fen(shredder=True).split()[2]


def test_random_edits_match_python_chess():
    rng = random.Random(44)
    counts = {"valid": 0, "flawed": 0, "invalid": 0}
    for sequence in range(160):
        empty = sequence % 3 == 0
        ours = chessbits.Board(None) if empty else chessbits.Board()
        theirs = chess.Board(None) if empty else chess.Board()
        if sequence % 4 == 1:
            # A Chess960 start: castling rights on rooks off the corners.
            theirs = chess.Board.from_chess960_pos(rng.randrange(960))
            ours = chessbits.Board(theirs.fen(), chess960=True)
        if empty:
            for sq, piece in ((chess.E1, (6, True)), (chess.E8, (6, False))):
                ours.set_piece_at(sq, chessbits.Piece(*piece))
                theirs.set_piece_at(sq, chess.Piece(*piece))
        for _ in range(25):
            r = rng.random()
            if r < 0.35:
                sq, piece = rng.randrange(64), rng.choice(PIECES)
                ours.set_piece_at(sq, None if piece is None else chessbits.Piece(*piece))
                theirs.set_piece_at(sq, None if piece is None else chess.Piece(*piece))
            elif r < 0.45:
                sq = rng.randrange(64)
                removed = ours.remove_piece_at(sq)
                expected = theirs.remove_piece_at(sq)
                assert (removed and removed.symbol()) == (expected and expected.symbol())
            elif r < 0.52:
                ours.turn = theirs.turn = not theirs.turn
                theirs.clear_stack()  # chessbits forgets the moves on every edit
            elif r < 0.56:
                mask = sum(1 << sq for sq in BACK_RANKS if rng.random() < 0.3)
                ours.castling_rights = theirs.castling_rights = mask
                theirs.clear_stack()
            elif r < 0.60:
                field = rng.choice(["KQkq", "K", "Q", "k", "q", "Qq", "Kk", "HAha", "Bg", "-"])
                ours.set_castling_fen(field)
                theirs.set_castling_fen(field)
            elif r < 0.67:
                ep = rng.choice([None, rng.randrange(64)] + list(range(16, 24)) + list(range(40, 48)))
                ours.ep_square = theirs.ep_square = ep
                theirs.clear_stack()
            elif r < 0.69:
                ours.clear()
                theirs.clear()
            elif ours.status() == 0:
                moves = list(ours.legal_moves)
                if moves:
                    move = rng.choice(moves)
                    ours.push(move)
                    theirs.push(chess.Move.from_uci(move.uci()))
            compare(ours, theirs, counts)
            if rng.random() < 0.05 and ours.move_stack:
                ours.pop()
                theirs.pop()
                compare(ours, theirs, counts)
    # Every kind of board was reached, enough times to mean something.
    assert min(counts.values()) >= 100, counts


def test_an_empty_board_is_set_up_into_a_game():
    board = chessbits.Board(None)
    assert board.status() == chess.Board(None).status()
    assert board.status() & chessbits.STATUS_EMPTY and not board.is_valid()
    assert board.fen() == "8/8/8/8/8/8/8/8 w - - 0 1"
    with pytest.raises(chessbits.PositionError, match="white has no king"):
        board.legal_moves
    # python-chess's own pieces are taken too.
    board.set_piece_at(chessbits.E1, chess.Piece(chess.KING, chess.WHITE))
    assert board.status() == chessbits.STATUS_NO_BLACK_KING
    board.set_piece_at(chessbits.E8, chessbits.Piece(chessbits.KING, chessbits.BLACK))
    board.set_piece_at(chessbits.H1, chessbits.Piece.from_symbol("R"))
    assert board.is_valid() and board.status() == chessbits.STATUS_VALID
    board.set_castling_fen("K")
    assert board.fen() == "4k3/8/8/8/8/8/8/4K2R w K - 0 1"
    board.push_san("O-O")
    assert board.fen() == "4k3/8/8/8/8/8/8/5RK1 b - - 1 1"
    assert board.root().fen() == "4k3/8/8/8/8/8/8/4K2R w K - 0 1"
    assert board.pop().uci() == "e1g1" and board.move_stack == []
    with pytest.raises(TypeError, match="chessbits.Piece or a chess.Piece"):
        board.set_piece_at(chessbits.A1, "Q")
    with pytest.raises(IndexError):
        board.set_piece_at(64, None)


def test_an_edit_forgets_the_moves_and_a_right_set_wrong_is_flagged_until_a_move():
    board = chessbits.Board()
    board.push_san("e4")
    board.remove_piece_at(chessbits.H1)
    assert board.move_stack == [] and board.fen().startswith("rnbqkbnr/pppppppp/8/8/4P3/8/")
    # The right is kept as set, and flagged, as python-chess keeps and flags it.
    assert board.castling_rights == chess.BB_A1 | chess.BB_H1 | chess.BB_A8 | chess.BB_H8
    assert board.status() == chessbits.STATUS_BAD_CASTLING_RIGHTS
    assert " b Qkq " in board.fen()
    board.push_san("e5")
    assert board.status() == chessbits.STATUS_VALID
    assert board.castling_rights == chess.BB_A1 | chess.BB_A8 | chess.BB_H8
    board.pop()
    assert board.status() == chessbits.STATUS_BAD_CASTLING_RIGHTS
    # With no move to forget, clear_stack() keeps the right as set (python-chess's too).
    board.clear_stack()
    assert board.status() == chessbits.STATUS_BAD_CASTLING_RIGHTS


def test_fields_are_set_as_python_chess_sets_them():
    board, theirs = chessbits.Board(), chess.Board()
    for b in (board, theirs):
        b.set_board_fen("4k3/8/8/3pP3/8/8/8/4K3")
        b.turn = chess.WHITE
        b.ep_square = chess.D6
        b.halfmove_clock = 7
        b.fullmove_number = 30
    assert board.fen() == theirs.fen() == "4k3/8/8/3pP3/8/8/8/4K3 w - d6 7 30"
    assert board.has_legal_en_passant()
    kings = {chess.E1: chess.Piece(chess.KING, True), chess.E8: chess.Piece(chess.KING, False)}
    board.set_piece_map(kings)
    theirs.set_piece_map(kings)
    assert board.board_fen() == "4k3/8/8/8/8/8/8/4K3"
    # The en passant square and the rights of the start position stay as set, and are flagged.
    assert board.ep_square == chess.D6 and board.castling_rights == theirs.castling_rights
    assert board.status() == int(theirs.status()) == (
        chessbits.STATUS_INVALID_EP_SQUARE | chessbits.STATUS_BAD_CASTLING_RIGHTS
    )
    board.clear_board()
    assert board.board_fen() == "8/8/8/8/8/8/8/8" and board.halfmove_clock == 7
    board.clear()
    assert board.fen() == chess.Board(None).fen()
    with pytest.raises(chessbits.FenError):
        board.set_board_fen("rnbqkbnr/pppppppp w")
    with pytest.raises(chessbits.FenError):
        board.set_board_fen("9/8/8/8/8/8/8/8")
    with pytest.raises(chessbits.FenError):
        board.set_castling_fen("KX")
    assert board.fen() == chess.Board(None).fen()  # unchanged by the errors


def test_a_board_set_up_half_way_pickles_copies_and_draws():
    board = chessbits.Board(None)
    board.set_piece_at(chessbits.D4, chessbits.Piece.from_symbol("Q"))
    board.castling_rights = chess.BB_H1
    board.ep_square = chess.E3
    again = pickle.loads(pickle.dumps(board))
    assert again == board and again.status() == board.status()
    assert again.castling_rights == chess.BB_H1 and again.ep_square == chess.E3
    assert board.copy() == board and board.copy(stack=False) == board
    assert board.mirror().board_fen() == "8/8/8/3q4/8/8/8/8" and not board.mirror().is_valid()
    assert board.unicode().count("♕") == 1 and "♕" in board._repr_svg_()
    assert repr(board).startswith("Board('8/8/8/8/3Q4/8/8/8 w - - 0 1')")
    with pytest.raises(chessbits.PositionError):
        board.outcome()
    with pytest.raises(chessbits.PositionError):
        board.zobrist_hash()


def test_status_flags_are_python_chess_values():
    for name in STATUS_NAMES:
        if hasattr(chessbits, name):
            assert getattr(chessbits, name) == int(getattr(chess, name)), name
    # Every flag is there, and the Status enum has python-chess's members.
    assert all(hasattr(chessbits, name) for name in STATUS_NAMES)
    assert {m.name: m.value for m in chessbits.Status} == {m.name: m.value for m in chess.Status}
    assert chessbits.Status.VALID == chess.Status.VALID == 0
    assert chessbits.Board().status() is chessbits.Status.VALID  # the cached member
    status = chessbits.Board(None).status()
    assert isinstance(status, chessbits.Status) and status == chess.Board(None).status()
    assert status & chessbits.STATUS_EMPTY and repr(status).startswith("<Status.")
    # A check no move can give, from a FEN (chessbits plays it, as published perft suites
    # hold such positions), is flagged as python-chess flags it.
    for fen in ("k7/8/8/8/8/8/8/r1K3r1 w - - 0 1", "4k3/8/8/8/8/8/8/R2K2Rr w - - 0 1"):
        assert chessbits.Board(fen).status() == int(chess.Board(fen).status()), fen
    assert chessbits.Board("k7/8/8/8/8/8/8/r1K3r1 w - - 0 1").status() == (
        chessbits.STATUS_IMPOSSIBLE_CHECK
    )


def test_what_an_audit_found_behaves_as_python_chess():
    # clear_stack with no move played keeps the fields as set.
    ours, theirs = chessbits.Board(), chess.Board()
    for b in (ours, theirs):
        b.castling_rights = chess.BB_A1 | chess.BB_B1
        b.ep_square = chess.H6
        b.clear_stack()
    assert (ours.castling_rights, ours.ep_square, ours.status()) == (
        theirs.castling_rights,
        theirs.ep_square,
        int(theirs.status()),
    )
    # Pickling after a move, from a start Board(fen) refuses (a pawn on a back rank), and
    # from one whose castling rights were set wrong.
    board = chessbits.Board(None)
    board.set_board_fen("4k2P/8/8/8/8/8/8/4K3")
    board.push_uci("e1d1")
    again = pickle.loads(pickle.dumps(board))
    assert again.fen() == board.fen() and again.move_stack == board.move_stack
    board = chessbits.Board()
    board.castling_rights = chess.BB_A1 | chess.BB_B1
    board.push_uci("e2e4")
    again = pickle.loads(pickle.dumps(board))
    again.pop()
    assert (again.castling_rights, again.status()) == (3, chessbits.STATUS_BAD_CASTLING_RIGHTS)
    # The castling field of a board that is no legal position, X-FEN and Shredder-FEN.
    for chess960 in (False, True):
        ours, theirs = chessbits.Board(None, chess960=chess960), chess.Board(None, chess960=chess960)
        for b in (ours, theirs):
            b.set_board_fen("r3k2r/8/8/8/8/8/8/R3K1KR")
            b.castling_rights = chess.BB_A8 | chess.BB_H8
        assert ours.fen() == theirs.fen() and ours.epd() == theirs.epd()
        assert ours.fen(shredder=True) == theirs.fen(shredder=True)
        # Two white kings: king() names the highest, as python-chess's does.
        assert ours.king(chess.WHITE) == theirs.king(chess.WHITE) == chess.G1
    # Attacks need no legal position.
    ours, theirs = chessbits.Board(None), chess.Board(None)
    for b in (ours, theirs):
        b.set_board_fen("r7/8/8/8/8/8/P7/K7")
    assert int(ours.attackers(chess.BLACK, chess.A2)) == int(theirs.attackers(chess.BLACK, chess.A2))
    assert ours.is_attacked_by(chess.BLACK, chess.A2) and not ours.checkers()
    move = chess.Move.from_uci("a2a3")
    assert ours.is_zeroing(move) and not ours.is_capture(move) and not ours.is_castling(move)
    # mirror() keeps castling rights and an en passant square set wrong, flagged.
    ours, theirs = chessbits.Board(), chess.Board()
    for b in (ours, theirs):
        b.set_board_fen("1r2k1r1/8/8/8/8/8/8/1R2K1R1")
        b.castling_rights = chess.BB_B1 | chess.BB_G1
        b.ep_square = chess.H6
    mirrored, expected = ours.mirror(), theirs.mirror()
    assert mirrored.castling_rights == expected.castling_rights
    assert mirrored.ep_square == expected.ep_square
    assert mirrored.status() == int(expected.status())
    # set_castling_fen as python-chess reads it: a letter may name no rook (flagged), "" and
    # None clear, white's letters come first.
    ours, theirs = chessbits.Board(), chess.Board()
    for b in (ours, theirs):
        b.set_board_fen("1r2k1r1/8/8/8/8/8/8/1R2K1R1")
        b.set_castling_fen("HAha")
    assert ours.castling_rights == theirs.castling_rights and ours.status() == int(theirs.status())
    for text in ("", None, "-"):
        ours.set_castling_fen(text)
        assert ours.castling_rights == 0
    with pytest.raises(chessbits.FenError, match="invalid castling fen"):
        ours.set_castling_fen("qK")
    # reset() keeps a Chess960 board Chess960.
    board = chessbits.Board(chess960=True)
    board.reset()
    assert board.chess960 and board.fen() == chess.STARTING_FEN
    # Surrounding whitespace of a placement is dropped, as python-chess drops it.
    board.set_board_fen(" 4k3/8/8/8/8/8/8/4K3 ")
    assert board.board_fen() == "4k3/8/8/8/8/8/8/4K3"


def test_square_set_lists_and_shifts_as_python_chess():
    ours, theirs = chessbits.SquareSet([0, 2, 63]), chess.SquareSet([0, 2, 63])
    assert ours.tolist() == theirs.tolist() and len(ours.tolist()) == 64
    for shift in (0, 5, 64, 2**70):
        assert int(ours >> shift) == int(theirs >> shift)
    for shift in (0, 5, 64, 200):
        assert int(ours << shift) == int(theirs << shift)
    assert not ours << 2**70  # python-chess runs out of memory here
    ours >>= 2**70
    assert not ours
    # A negative count is refused with python-chess's (and Python's) ValueError.
    for shift in ("__lshift__", "__rshift__", "__ilshift__", "__irshift__"):
        with pytest.raises(ValueError, match="negative shift count"):
            getattr(chessbits.SquareSet(1), shift)(-1)
        with pytest.raises(ValueError):
            getattr(chess.SquareSet(1), shift)(-1)
    with pytest.raises(TypeError):
        chessbits.SquareSet(1) << "1"


def test_what_a_review_found_behaves_as_python_chess():
    # A set changed in place by itself (this aborted the interpreter).
    for change in ("__ior__", "__iand__", "__ixor__", "__isub__"):
        ours, theirs = chessbits.SquareSet(0xF0F0), chess.SquareSet(0xF0F0)
        assert int(getattr(ours, change)(ours)) == int(getattr(theirs, change)(theirs))
    for change in ("update", "intersection_update", "difference_update"):
        ours, theirs = chessbits.SquareSet(0xF0F0), chess.SquareSet(0xF0F0)
        getattr(ours, change)(ours)
        getattr(theirs, change)(theirs)
        assert int(ours) == int(theirs)
    squares = chessbits.SquareSet(0x0F)
    squares |= squares
    squares ^= squares
    assert not squares
    # "Q" with a king and no rook on its side names nothing; with no king, the a-file.
    for fen in ("4k3/8/8/8/8/8/8/4K3 w - - 0 1", "8/8/8/8/8/8/8/R7 w - - 0 1"):
        for field in ("Q", "q", "K", "k", "KQkq"):
            ours, theirs = chessbits.Board(None), chess.Board(None)
            for b in (ours, theirs):
                b.set_board_fen(fen.split()[0])
                b.set_castling_fen(field)
            assert ours.castling_rights == theirs.castling_rights, (fen, field)
            assert ours.status() == theirs.status(), (fen, field)
    # A pin with two kings of one color: the highest king counts, as in pin_mask.
    ours, theirs = chessbits.Board(None), chess.Board(None)
    for b in (ours, theirs):
        b.set_board_fen("4r2k/8/8/8/8/8/4N3/K3K3")
    assert ours.is_pinned(chess.WHITE, chess.E2) == theirs.is_pinned(chess.WHITE, chess.E2)
    # On a Chess960 board the king's two-square move is no castling move.
    fen = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"
    for chess960 in (False, True):
        ours, theirs = chessbits.Board(fen, chess960=chess960), chess.Board(fen, chess960=chess960)
        for to in (chess.G1, chess.C1, chess.H1, chess.A1):
            try:
                expected = theirs.find_move(chess.E1, to)
            except chess.IllegalMoveError:
                with pytest.raises(chessbits.IllegalMoveError):
                    ours.find_move(chess.E1, to)
            else:
                assert ours.find_move(chess.E1, to) == expected
    # A huge move number, and a square off the board.
    board = chessbits.Board()
    board.fullmove_number = 2**31 + 1
    assert board.ply() == 2**32
    with pytest.raises(IndexError):
        chessbits.square_knight_distance(0, 64)
    # An opcode ends at python-chess's four spaces only.
    line = "4k3/8/8/8/8/8/8/4K3 w - - id\xa01;"
    assert list(chessbits.Board.from_epd(line)[1]) == list(chess.Board.from_epd(line)[1])
