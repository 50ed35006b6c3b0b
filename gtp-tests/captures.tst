# Captures: a single stone in the centre, on the edge and in the corner,
# two strings at once, a string of two stones, and a capturing stone that
# has no liberty of its own before the capture (the opponent is cleared first).

boardsize 9
clear_board
komi 0

# A single stone in the centre.
play b E5
play w D5
play w F5
play w E4
1 countlib E5
#? [1]
2 play w E6
#? []
3 color E5
#? [empty]
4 captures white
#? [1]
5 captures black
#? [0]
6 list_stones black
#? []
7 countlib E4
#? [4]
# Black in the eye would be a one-stone suicide; White may fill its own eye.
8 is_legal b E5
#? [0]
9 is_legal w E5
#? [1]

# The corner.
play b A1
play w A2
10 countlib A1
#? [1]
11 play w B1
#? []
12 color A1
#? [empty]
13 captures white
#? [2]

# The edge.
play b E1
play w D1
play w F1
14 countlib E1
#? [1]
15 play w E2
#? []
16 color E1
#? [empty]
17 captures white
#? [3]
18 list_stones white
#? [B1 D1 F1 A2 E2 E4 D5 F5 E6]

# Two strings at once, by a stone that has no liberty before the capture.
clear_board
play b D1
play b F1
play b E2
play w C1
play w D2
play w F2
play w G1
19 countlib D1
#? [1]
20 countlib F1
#? [1]
21 countlib E2
#? [2]
22 is_legal w E1
#? [1]
23 play w E1
#? []
24 list_stones black
#? [E2]
25 list_stones white
#? [C1 E1 G1 D2 F2]
26 countlib E1
#? [2]
27 countlib E2
#? [1]
28 captures white
#? [2]

# A string of two stones.
clear_board
play b D5
play b E5
play w C5
play w F5
play w D4
play w E4
play w D6
29 countlib D5
#? [1]
30 countlib E5
#? [1]
31 play w E6
#? []
32 list_stones black
#? []
33 captures white
#? [2]
34 countlib D4
#? [6]

# Black captures too: the white corner stone A1.
clear_board
play w A1
play b A2
35 countlib A1
#? [1]
36 play b B1
#? []
37 color A1
#? [empty]
38 captures black
#? [1]
39 captures white
#? [0]
