# boardsize, clear_board and komi: sizes 2 to 25, komi kept across
# boardsize and clear_board, captures reset by clear_board.

1 boardsize 9
#? []
2 clear_board
#? []
3 komi 6.5
#? []

# The empty board scores 0 to 0: White wins by komi.
4 final_score
#? [W\+6\.5]

# The smallest board: every point is legal.
5 boardsize 2
#? []
6 clear_board
#? []
7 all_legal black
#? [A1 B1 A2 B2]
8 list_stones black
#? []

# Komi is kept across boardsize and clear_board.
9 final_score
#? [W\+6\.5]

# The largest board: column Z, row 25.
10 boardsize 25
#? []
11 clear_board
#? []
12 play b Z25
#? []
13 color Z25
#? [black]
14 play w A1
#? []
15 list_stones white
#? [A1]
16 countlib Z25
#? [2]

# clear_board empties the board and resets captures.
17 clear_board
#? []
18 color Z25
#? [empty]
19 list_stones black
#? []
20 final_score
#? [W\+6\.5]

# Komi values: zero, negative, integer, half.
21 komi 0
#? []
22 final_score
#? [0]
23 komi -3
#? []
24 final_score
#? [B\+3]
25 komi 7
#? []
26 final_score
#? [W\+7]
27 komi 0.5
#? []
28 final_score
#? [W\+0\.5]

# Captures are reset by clear_board.
boardsize 9
clear_board
play b A1
play w A2
play w B1
29 captures white
#? [1]
30 clear_board
#? []
31 captures white
#? [0]
32 captures black
#? [0]
33 list_stones white
#? []

# boardsize to another size, then back: the board is empty after clear_board.
34 boardsize 13
#? []
35 clear_board
#? []
36 play b N13
#? []
37 color N13
#? [black]
38 boardsize 19
#? []
39 clear_board
#? []
40 list_stones black
#? []
41 play w T19
#? []
42 color T19
#? [white]
