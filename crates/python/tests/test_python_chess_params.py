"""python-chess's optional parameters and class members (issue 44): the ``from_mask`` and
``to_mask`` of every ``generate_*`` method, ``piece_map(mask=)``, ``attackers(...,
occupied=)``, ``uci(move, chess960=)``, ``fen(promoted=)``, ``Outcome`` equality,
``SquareSet.carry_rippler()``, the SVG drawings and the variant attributes. python-chess is
the oracle, over random games from the standard start and Chess960 starts and the sample's
games."""

import random

import pytest

import chessbits
from test_board import oracle_games

chess = pytest.importorskip("chess")

GENERATORS = [
    "generate_legal_moves",
    "generate_legal_captures",
    "generate_legal_ep",
    "generate_castling_moves",
    "generate_pseudo_legal_moves",
    "generate_pseudo_legal_captures",
    "generate_pseudo_legal_ep",
]


def random_boards(rng, games, plies):
    """python-chess boards along random games: standard and Chess960 starts, so castling of
    every kind, en passant and promotions come up."""
    for n in range(games):
        board = chess.Board.from_chess960_pos(rng.randrange(960)) if n % 2 else chess.Board()
        for _ in range(rng.randrange(plies)):
            moves = list(board.legal_moves)
            if not moves:
                break
            # Pawn moves first half the time, so that games reach promotions.
            pawns = [m for m in moves if board.piece_type_at(m.from_square) == chess.PAWN]
            board.push(rng.choice(pawns if pawns and rng.random() < 0.5 else moves))
            yield board


def ours(board):
    return chessbits.Board(board.fen(), chess960=board.chess960)


def masks(rng, board):
    yield chess.BB_ALL, chess.BB_ALL
    yield board.occupied_co[board.turn], chess.BB_ALL
    yield chess.BB_ALL, board.occupied_co[not board.turn]
    # The castling rooks' corners and the king's castling squares, whose masks differ.
    yield chess.BB_ALL, chess.BB_CORNERS | chess.BB_C1 | chess.BB_G1 | chess.BB_C8 | chess.BB_G8
    yield chess.BB_ALL, board.castling_rights
    for _ in range(3):
        yield rng.getrandbits(64), rng.getrandbits(64)


def test_generators_take_python_chess_masks():
    rng = random.Random(35)
    checked = 0
    castles = 0
    for theirs in random_boards(rng, 80, 120):
        board = ours(theirs)
        for from_mask, to_mask in masks(rng, theirs):
            for name in GENERATORS:
                got = sorted(m.uci() for m in getattr(board, name)(from_mask, to_mask))
                want = sorted(m.uci() for m in getattr(theirs, name)(from_mask, to_mask))
                assert got == want, (theirs.fen(), name, hex(from_mask), hex(to_mask))
                castles += name == "generate_castling_moves" and len(want)
                checked += 1
            kept = board.piece_map(mask=from_mask)
            assert kept == theirs.piece_map(mask=from_mask)
    assert checked > 40_000 and castles > 100
    # SquareSets and lists of squares are masks too; the defaults are every square.
    board = chessbits.Board()
    knight = board.generate_legal_moves(chessbits.SquareSet([chessbits.G1]))
    assert sorted(m.uci() for m in knight) == ["g1f3", "g1h3"]
    assert len(list(board.generate_legal_moves(to_mask=[chessbits.E4, chessbits.E3]))) == 2
    assert board.piece_map() == chess.Board().piece_map()


def test_a_mask_of_a_castling_move_is_its_rooks_square():
    fen = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"
    board, theirs = chessbits.Board(fen), chess.Board(fen)
    for to_mask in [chess.BB_G1, chess.BB_H1, chess.BB_C1 | chess.BB_A1]:
        got = sorted(m.uci() for m in board.generate_castling_moves(chess.BB_E1, to_mask))
        want = sorted(m.uci() for m in theirs.generate_castling_moves(chess.BB_E1, to_mask))
        assert got == want
    # The king's own square is g1, yet the move is found only by its rook's h1.
    assert list(board.generate_legal_moves(chess.BB_E1, chess.BB_G1)) == []
    assert [m.uci() for m in board.generate_legal_moves(chess.BB_E1, chess.BB_H1)] == ["e1g1"]


def test_attackers_with_another_occupancy():
    rng = random.Random(36)
    checked = 0
    for theirs in random_boards(rng, 20, 80):
        board = ours(theirs)
        for _ in range(4):
            occupied = rng.getrandbits(64) & theirs.occupied if rng.random() < 0.7 else rng.getrandbits(64)
            square, color = rng.randrange(64), rng.random() < 0.5
            want = theirs.attackers_mask(color, square, occupied)
            assert board.attackers_mask(color, square, occupied) == want
            assert int(board.attackers(color, square, occupied)) == want
            assert board.is_attacked_by(color, square, occupied) == theirs.is_attacked_by(
                color, square, occupied
            )
            checked += 1
        square = rng.randrange(64)
        assert int(board.attackers(chess.WHITE, square)) == int(theirs.attackers(chess.WHITE, square))
    assert checked > 1000


def test_uci_writes_castling_as_asked():
    rng = random.Random(37)
    checked = 0
    for theirs in random_boards(rng, 40, 60):
        board = ours(theirs)
        moves = list(theirs.legal_moves) + list(theirs.pseudo_legal_moves)
        # Moves that need not be legal: the king's squares of castling and the corners.
        for king in [chess.E1, chess.E8]:
            for to in [chess.A1, chess.C1, chess.G1, chess.H1, chess.A8, chess.C8, chess.G8, chess.H8]:
                moves.append(chess.Move(king, to))
        moves.append(chess.Move.null())
        for move in moves:
            for chess960 in [None, False, True]:
                assert board.uci(move, chess960=chess960) == theirs.uci(move, chess960=chess960), (
                    theirs.fen(),
                    move,
                    chess960,
                )
                checked += 1
    assert checked > 10_000


def test_promoted_marks_as_python_chess_writes_them():
    rng = random.Random(38)
    marked = 0
    for theirs in random_boards(rng, 60, 200):
        if not theirs.promoted:
            continue
        board = chessbits.Board(theirs.root().fen(), chess960=theirs.chess960)
        for move in theirs.move_stack:
            board.push(move)
        assert board.promoted == theirs.promoted
        for promoted in [None, False, True]:
            assert board.fen(promoted=promoted) == theirs.fen(promoted=promoted)
            assert board.board_fen(promoted=promoted) == theirs.board_fen(promoted=promoted)
            assert board.epd(promoted=promoted) == theirs.epd(promoted=promoted)
            assert board.shredder_fen(promoted=promoted) == theirs.shredder_fen(promoted=promoted)
        marked += 1
    assert marked > 20
    assert chessbits.Board().board_fen() == chess.STARTING_BOARD_FEN


def test_outcomes_equal_python_chess_outcomes():
    for fen in [
        "7k/6Q1/6K1/8/8/8/8/8 b - - 0 1",
        "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1",
        "8/8/8/8/8/8/8/k6K w - - 0 1",
    ]:
        mine, theirs = chessbits.Board(fen).outcome(), chess.Board(fen).outcome()
        assert mine == theirs and theirs == mine
        assert not (mine != theirs)
        assert mine == chessbits.Board(fen).outcome()
    mate = chessbits.Board("7k/6Q1/6K1/8/8/8/8/8 b - - 0 1").outcome()
    assert mate != chess.Outcome(chess.Termination.CHECKMATE, chess.BLACK)
    assert mate != chess.Outcome(chess.Termination.STALEMATE, chess.WHITE)
    assert mate != "CHECKMATE" and mate != None  # noqa: E711
    with pytest.raises(TypeError):
        hash(mate)


def test_carry_rippler_gives_every_subset_as_python_chess():
    rng = random.Random(39)
    for mask in [0, 1, chess.BB_E4, chess.BB_RANK_1, rng.getrandbits(64) & rng.getrandbits(64) & rng.getrandbits(64)]:
        mask &= 0xFFFF_0000_0000_FFFF if bin(mask).count("1") > 14 else mask
        got = list(chessbits.SquareSet(mask).carry_rippler())
        assert got == list(chess.SquareSet(mask).carry_rippler())
        assert len(got) == 2 ** bin(mask).count("1") and len(set(got)) == len(got)
    # Lazy: the subsets of every square are not all made.
    subsets = chessbits.SquareSet(chess.BB_ALL).carry_rippler()
    assert [next(subsets) for _ in range(3)] == [0, 1, 2]


def test_drawings_of_sets_and_pieces():
    svg = chessbits.SquareSet([chessbits.E4, chessbits.D5])._repr_svg_()
    assert svg.startswith("<svg") and svg.count("<path") == 2
    assert chessbits.Board()._repr_svg_().count("<path") == 0
    piece = chessbits.Piece.from_symbol("n")._repr_svg_()
    assert piece.startswith("<svg") and "\u265e" in piece


def test_variant_attributes_are_python_chess_ones():
    for name in [
        "starting_fen",
        "uci_variant",
        "xboard_variant",
        "aliases",
        "one_king",
        "connected_kings",
        "captures_compulsory",
    ]:
        assert getattr(chessbits.Board, name) == getattr(chess.Board, name), name
        assert getattr(chessbits.Board(), name) == getattr(chess.Board(), name), name
    board = chessbits.Board()
    assert not any(
        [board.is_variant_end(), board.is_variant_win(), board.is_variant_loss(), board.is_variant_draw()]
    )
    empty = chessbits.Board.empty()
    assert empty.fen() == chess.Board.empty().fen() and not empty.chess960
    assert chessbits.Board.empty(chess960=True).chess960
    # python-chess's parameter names, by keyword.
    board.push_xboard(san="e4")
    assert board.variation_san(variation=[chess.Move.from_uci("e7e5")]) == "1...e5"


def test_sample_games_agree_on_masked_generation():
    rng = random.Random(40)
    positions = 0
    for game in oracle_games(limit=40):
        theirs = game.board()
        for move in game.mainline_moves():
            theirs.push(move)
            if rng.random() < 0.2:
                board = ours(theirs)
                from_mask, to_mask = rng.getrandbits(64), rng.getrandbits(64)
                for name in GENERATORS:
                    got = sorted(m.uci() for m in getattr(board, name)(from_mask, to_mask))
                    assert got == sorted(m.uci() for m in getattr(theirs, name)(from_mask, to_mask))
                positions += 1
    assert positions > 200


def test_material_is_told_on_boards_being_set_up():
    rng = random.Random(41)
    incomplete = 0
    for _ in range(3000):
        pieces = {
            rng.randrange(64): chess.Piece(rng.choice([1, 2, 3, 3, 6, 6]), rng.random() < 0.5)
            for _ in range(rng.randrange(5))
        }
        theirs = chess.Board(None)
        theirs.set_piece_map(pieces)
        board = chessbits.Board(None)
        board.set_piece_map({sq: chessbits.Piece(p.piece_type, p.color) for sq, p in pieces.items()})
        incomplete += not board.is_valid()
        assert board.is_insufficient_material() == theirs.is_insufficient_material(), theirs.fen()
        for color in chess.COLORS:
            assert board.has_insufficient_material(color) == theirs.has_insufficient_material(color)
    assert incomplete > 2000
