# loadsgf (whole file and up to a move number, Fuego's reading: play up to,
# not including, move N), setup stones, captures in the file, and printsgf
# (to the response and to a file, read back with loadsgf). hane answers
# loadsgf with the colour to move, as GNU Go does.

# sgf/regress-simple.sgf: 9x9, B E5, W C5, B E3, W G7, B C3.
1 loadsgf sgf/regress-simple.sgf
#? [white]
2 list_stones black
#? [C3 E3 E5]
3 list_stones white
#? [C5 G7]
4 all_legal black
#? [(\S+ ){75}\S+]
# Up to move 3: B E5, W C5 only.
5 loadsgf sgf/regress-simple.sgf 3
#? [black]
6 list_stones black
#? [E5]
7 list_stones white
#? [C5]
# Up to move 1: the empty board.
8 loadsgf sgf/regress-simple.sgf 1
#? [black]
9 list_stones black
#? []
10 list_stones white
#? []
# The loaded moves are history: undo takes them back.
# Up to move 4 is B E5, W C5, B E3; undo takes E3 back.
loadsgf sgf/regress-simple.sgf 4
11 undo
#? []
12 list_stones white
#? [C5]
13 list_stones black
#? [E5]

# sgf/regress-capture.sgf: 5x5, B A5, W B5, B C3, W A4 captures A5.
14 loadsgf sgf/regress-capture.sgf
#? [black]
15 list_stones black
#? [C3]
16 list_stones white
#? [A4 B5]
17 captures white
#? [1]
18 color A5
#? [empty]
# The file set the board size: E5 is the far corner.
19 color E5
#? [empty]
20 is_legal b E5
#? [1]

# sgf/regress-setup.sgf: 5x5, AB A4 B5 (an eye at A5), AW E1. The setup
# colouring is an earlier colouring: White's one-stone suicide at A5 would
# recreate it.
21 loadsgf sgf/regress-setup.sgf
#? [black]
22 list_stones black
#? [A4 B5]
23 list_stones white
#? [E1]
24 is_legal w A5
#? [0]
25 is_legal b A5
#? [1]

# printsgf: the game as SGF in the response.
boardsize 9
clear_board
komi 6.5
play b E5
play w C5
play b E3
26 printsgf
#? [\(;.*\)]
27 printsgf
#? [.*SZ\[9\].*]
28 printsgf
#? [.*KM\[6\.5\].*]
29 printsgf
#? [.*;B\[ee\].*;W\[ce\].*;B\[eg\].*]
# Handicap stones are setup stones (AB).
clear_board
set_free_handicap C3 G7
play w E5
30 printsgf
#? [.*AB(\[cg\]\[gc\]|\[gc\]\[cg\]).*;W\[ee\].*]
# printsgf to a file, then loadsgf of that file gives the same position.
clear_board
play b E5
play w C5
play b C3
play w pass
31 printsgf /tmp/hane-regress-roundtrip.sgf
#? []
clear_board
32 loadsgf /tmp/hane-regress-roundtrip.sgf
#? [black]
33 list_stones black
#? [C3 E5]
34 list_stones white
#? [C5]

# A setup that returns to an earlier position loads: superko restricts moves,
# not setup, and SGF's setup properties overwrite what was there (SGF FF[4]
# AB/AW/AE). (;SZ[9];B[ee];AE[ee]) was "setup repeats an earlier position".
35 loadsgf sgf/setup-returns.sgf
#? [white]
36 list_stones black
#? []
