# Move generation and time commands. Time commands answer nothing. genmove
# plays a legal vertex, pass or resign; reg_genmove does not play;
# kgs-genmove_cleanup plays like genmove; and where one move is forced (a
# capture that saves a string, the one escape of a string in atari), genmove
# plays it. A one-second byo-yomi keeps the searches short; the forced
# moves are found in far less, with no seed.

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

# A capturing race of one liberty each: White's four stones on the first
# line and Black's five above them share their last liberty, E1. Black must
# take it: the capture saves the five, any other move loses them.
boardsize 9
clear_board
komi 7.5
play w A1
play w B1
play w C1
play w D1
play b A2
play b B2
play b C2
play b D2
play b E2
play w A3
play w B3
play w C3
play w D3
play w E3
play w F2
23 countlib A2
#? [1]
24 genmove b
#? [E1]
25 captures black
#? [4]

# Black's three stones C3-E3 in atari, their one liberty F3 between them
# and Black's F4 and G3: F3 joins them to those stones; any other move lets
# White take the three. No White string is in atari, so no capture saves
# them instead.
boardsize 9
clear_board
play b C3
play b D3
play b E3
play b F4
play b G3
play w B3
play w C2
play w D2
play w E2
play w C4
play w D4
play w E4
26 countlib C3
#? [1]
27 genmove b
#? [F3]
28 countlib C3
#? [[4-9]]
