# Positional superko beyond the simple ko: a double ko with a pass in
# between. Each move is a legal simple-ko recapture (the last move was not
# at that ko), yet it recreates a whole-board colouring from earlier in the
# game, so it is illegal. Also: it does not matter who was to move then.

boardsize 9
clear_board
komi 0

# Ko A at E5/F5: White's stone E5 can be taken by Black at F5.
play b D5
play b E6
play b E4
play w F6
play w F4
play w G5
play w E5
# Ko B at C2/D2: Black's stone C2 can be taken by White at D2.
play w B2
play w C3
play w C1
play b D3
play b D1
play b E2
play b C2
# This colouring is P0.
1 countlib E5
#? [1]
2 countlib C2
#? [1]

# Black takes ko A (P1), White takes ko B (P2), Black passes.
3 play b F5
#? []
4 play w D2
#? []
5 play b pass
#? []
# White retakes ko A: not an immediate recapture, and P3 is new.
6 is_legal w E5
#? [1]
7 play w E5
#? []
8 list_stones white
#? [C1 B2 D2 C3 F4 E5 G5 F6]
9 list_stones black
#? [D1 E2 D3 E4 D5 E6]

# Black retaking ko B is no immediate recapture (White's last move was at
# ko A), but it recreates P0.
10 is_legal b C2
#? [0]
# Black taking ko A would recreate P2, a colouring that arose after a white
# move with Black to play: positional superko forbids it all the same.
11 is_legal b F5
#? [0]
12 all_legal black
#? [!.*\b(C2|F5)\b.*]
13 is_legal b A9
#? [1]
# White is not concerned: its moves elsewhere are legal.
14 is_legal w A9
#? [1]

# After a move elsewhere the board is new and both kos can be taken again.
play b A9
play w J1
16 is_legal b C2
#? [1]
17 is_legal b F5
#? [1]

# Sending two, returning one (5x5): Black throws in at A1 (two stones in
# atari), White captures both at C1, Black retakes C1 at B1. That last move
# is no simple ko (White's capture took two stones), but it recreates the
# colouring before the throw-in, three moves earlier, with the other player
# to move.
boardsize 5
clear_board
play w A2
play w B2
play b B1
play b C2
play b D2
play b D1
18 countlib B1
#? [2]
19 play b A1
#? []
20 countlib A1
#? [1]
21 play w C1
#? []
22 captures white
#? [2]
23 list_stones black
#? [D1 C2 D2]
24 countlib C1
#? [1]
25 is_legal b B1
#? [0]
26 all_legal black
#? [!.*\bB1\b.*]
# Black playing A1 instead is new.
27 is_legal b A1
#? [1]
