# Move generation and time commands. Time commands answer nothing. genmove
# plays a legal vertex, pass or resign; reg_genmove does not play;
# kgs-genmove_cleanup plays like genmove. A one-second byo-yomi keeps the
# searches short.

1 time_settings 0 1 1
#? []
2 time_left b 1 1
#? []
3 time_left white 1 1
#? []
4 kgs-time_settings none
#? []
5 kgs-time_settings absolute 60
#? []
6 kgs-time_settings canadian 0 5 5
#? []
7 kgs-time_settings byoyomi 0 1 1
#? []
time_settings 0 1 1

# 9x9, empty board.
boardsize 9
clear_board
komi 7.5
8 genmove b
#? [[A-HJ][1-9]|pass|resign]
9 list_stones black
#? [([A-HJ][1-9])?]
10 reg_genmove w
#? [[A-HJ][1-9]|pass|resign]
11 list_stones white
#? []
12 genmove white
#? [[A-HJ][1-9]|pass|resign]
13 list_stones white
#? [([A-HJ][1-9])?]
14 kgs-genmove_cleanup b
#? [[A-HJ][1-9]|pass|resign]
15 final_status_list dead
#? []

# 3x3 with a white cross: Black has no legal point and must pass (or resign).
boardsize 3
clear_board
play w B1
play w A2
play w C2
play w B3
16 reg_genmove b
#? [pass|resign]
17 genmove b
#? [pass|resign]
18 list_stones black
#? []
# White may only fill its own points; B2 and the corners are legal.
19 genmove w
#? [A1|C1|B2|A3|C3|pass|resign]

# 2x2: every legal move for Black on an empty board.
boardsize 2
clear_board
20 genmove b
#? [A1|B1|A2|B2|pass|resign]

# The ko of ko.tst: genmove never retakes at once.
boardsize 9
clear_board
play b D5
play b E6
play b E4
play w F6
play w F4
play w G5
play w E5
play b F5
21 reg_genmove w
#? [!E5]
22 genmove w
#? [!E5]
