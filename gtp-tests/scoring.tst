# final_score: the Tromp-Taylor count of the board as it stands. Stones
# count for their colour, an empty region counts for the only colour it
# reaches, a region reaching both (dame) counts for nobody, komi goes to
# White. No dead stones are removed. Formats: B+3.5, W+7, 0 for a tie.

# The empty board: 0 to 0, White wins by komi.
boardsize 9
clear_board
komi 7
1 final_score
#? [W\+7]
komi 7.5
2 final_score
#? [W\+7\.5]

# 5x5, Black wall on column C, White wall on column D:
# Black 5 stones + 10 empty = 15, White 5 stones + 5 empty = 10.
boardsize 5
clear_board
komi 0
play b C1
play b C2
play b C3
play b C4
play b C5
play w D1
play w D2
play w D3
play w D4
play w D5
3 final_score
#? [B\+5]
komi 2.5
4 final_score
#? [B\+2\.5]
komi 5
5 final_score
#? [0]
komi 5.5
6 final_score
#? [W\+0\.5]

# A white stone left inside Black's area is not removed: it counts for White
# and the nine empty points around it reach both colours (neutral).
# Black 5, White 5 + 5 + 1 = 11.
komi 0
play w A1
7 final_score
#? [W\+6]
8 final_status_list alive
#? [A1 C1 D1 C2 D2 C3 D3 C4 D4 C5 D5]
9 final_status_list dead
#? []
10 final_status_list seki
#? []
# Black captures it and the area is Black's again.
play b A2
play b B1
11 captures black
#? [1]
12 final_score
#? [B\+5]

# Dame: Black on column B, White on column D, column C empty reaches both.
# Black 5 + 5 = 10, White 5 + 5 = 10.
clear_board
komi 0
play b B1
play b B2
play b B3
play b B4
play b B5
play w D1
play w D2
play w D3
play w D4
play w D5
13 final_score
#? [0]
komi 0.5
14 final_score
#? [W\+0\.5]
# Black fills one dame point: Black 6 + 5 = 11, White 10.
komi 0
play b C3
15 final_score
#? [B\+1]
# The two dame regions C1-C2 and C4-C5 still reach both colours.
play w C4
16 final_score
#? [0]

# A single stone on an empty board owns the whole board.
clear_board
komi 0
play w C3
17 final_score
#? [W\+25]
# One stone each: every empty point reaches both colours.
play b A1
18 final_score
#? [0]

# 3x3, a black wall on row 2: Black 3 stones + rows 1 and 3 = 9. A white
# stone on row 3 makes B3 C3 reach both colours: Black 6, White 1.
boardsize 3
clear_board
komi 0
play b A2
play b B2
play b C2
19 final_score
#? [B\+9]
play w A3
20 final_score
#? [B\+5]

# A count is written with the komi's decimals and no more: 4 - 2.2 in
# binary floating point is 1.7999999999999998, and final_score, showboard's
# count and printsgf's RE (SGF FF[4]: "RE[B+1.8]") must say 1.8.
komi 2.2
play w B3
21 final_score
#? [B\+1\.8]
22 showboard
#? [.*Tromp-Taylor count B\+1\.8]
komi 4.7
play b pass
play w pass
23 printsgf
#? [.*RE\[W\+0\.7\].*]
