# undo: takes back the last move with its captures and its colouring in the
# superko history; undo back to the start gives the empty board.

boardsize 9
clear_board
komi 0

play b E5
play w D5
play w F5
play w E4
play w E6
1 captures white
#? [1]
2 color E5
#? [empty]
# Take back the capture: E5 comes back, the capture count too.
3 undo
#? []
4 color E5
#? [black]
5 color E6
#? [empty]
6 captures white
#? [0]
7 countlib E5
#? [1]
8 list_stones white
#? [E4 D5 F5]
# Undo back to the start.
9 undo
#? []
10 undo
#? []
11 undo
#? []
12 undo
#? []
13 list_stones black
#? []
14 list_stones white
#? []
15 final_score
#? [0]
# The undone colourings are no longer history: the same moves are legal.
16 is_legal b E5
#? [1]
17 play b E5
#? []
18 color E5
#? [black]

# Undo a ko capture: the superko history is rolled back with it.
clear_board
play b D5
play b E6
play b E4
play w F6
play w F4
play w G5
play w E5
play b F5
19 is_legal w E5
#? [0]
play w A1
20 undo
#? []
21 undo
#? []
22 color E5
#? [white]
23 captures black
#? [0]
24 is_legal b F5
#? [1]
25 play b F5
#? []
26 captures black
#? [1]

# Undo a multi-stone suicide.
clear_board
play b A1
play w A2
play w B2
play w C1
play b B1
27 list_stones black
#? []
28 undo
#? []
29 list_stones black
#? [A1]
30 countlib A1
#? [1]

# Undo a pass.
clear_board
play b C3
play w pass
31 undo
#? []
32 list_stones black
#? [C3]
33 undo
#? []
34 list_stones black
#? []
