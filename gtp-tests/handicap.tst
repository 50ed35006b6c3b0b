# fixed_handicap: the vertices of GTP v2 section 4.1.1, for every count the
# spec allows (2 to 9 on 9x9, 13x13 and 19x19). The response may list them
# in the spec's order or row by row from row 1 upwards; list_stones checks
# the exact set, row by row. Then place_free_handicap and set_free_handicap
# (GTP: no output). Handicap stones make a colouring that counts for superko.

# 9x9
boardsize 9
clear_board
1 fixed_handicap 2
#? [C3 G7]
2 list_stones black
#? [C3 G7]
3 list_stones white
#? []
clear_board
4 fixed_handicap 3
#? [C3 G7 C7|C3 C7 G7]
5 list_stones black
#? [C3 C7 G7]
6 list_stones white
#? []
clear_board
7 fixed_handicap 4
#? [C3 G7 C7 G3|C3 G3 C7 G7]
8 list_stones black
#? [C3 G3 C7 G7]
9 list_stones white
#? []
clear_board
10 fixed_handicap 5
#? [C3 G7 C7 G3 E5|C3 G3 E5 C7 G7]
11 list_stones black
#? [C3 G3 E5 C7 G7]
12 list_stones white
#? []
clear_board
13 fixed_handicap 6
#? [C3 G7 C7 G3 C5 G5|C3 G3 C5 G5 C7 G7]
14 list_stones black
#? [C3 G3 C5 G5 C7 G7]
15 list_stones white
#? []
clear_board
16 fixed_handicap 7
#? [C3 G7 C7 G3 C5 G5 E5|C3 G3 C5 E5 G5 C7 G7]
17 list_stones black
#? [C3 G3 C5 E5 G5 C7 G7]
18 list_stones white
#? []
clear_board
19 fixed_handicap 8
#? [C3 G7 C7 G3 C5 G5 E3 E7|C3 E3 G3 C5 G5 C7 E7 G7]
20 list_stones black
#? [C3 E3 G3 C5 G5 C7 E7 G7]
21 list_stones white
#? []
clear_board
22 fixed_handicap 9
#? [C3 G7 C7 G3 C5 G5 E3 E7 E5|C3 E3 G3 C5 E5 G5 C7 E7 G7]
23 list_stones black
#? [C3 E3 G3 C5 E5 G5 C7 E7 G7]
24 list_stones white
#? []

# 13x13
boardsize 13
clear_board
25 fixed_handicap 2
#? [D4 K10]
26 list_stones black
#? [D4 K10]
27 list_stones white
#? []
clear_board
28 fixed_handicap 3
#? [D4 K10 D10|D4 D10 K10]
29 list_stones black
#? [D4 D10 K10]
30 list_stones white
#? []
clear_board
31 fixed_handicap 4
#? [D4 K10 D10 K4|D4 K4 D10 K10]
32 list_stones black
#? [D4 K4 D10 K10]
33 list_stones white
#? []
clear_board
34 fixed_handicap 5
#? [D4 K10 D10 K4 G7|D4 K4 G7 D10 K10]
35 list_stones black
#? [D4 K4 G7 D10 K10]
36 list_stones white
#? []
clear_board
37 fixed_handicap 6
#? [D4 K10 D10 K4 D7 K7|D4 K4 D7 K7 D10 K10]
38 list_stones black
#? [D4 K4 D7 K7 D10 K10]
39 list_stones white
#? []
clear_board
40 fixed_handicap 7
#? [D4 K10 D10 K4 D7 K7 G7|D4 K4 D7 G7 K7 D10 K10]
41 list_stones black
#? [D4 K4 D7 G7 K7 D10 K10]
42 list_stones white
#? []
clear_board
43 fixed_handicap 8
#? [D4 K10 D10 K4 D7 K7 G4 G10|D4 G4 K4 D7 K7 D10 G10 K10]
44 list_stones black
#? [D4 G4 K4 D7 K7 D10 G10 K10]
45 list_stones white
#? []
clear_board
46 fixed_handicap 9
#? [D4 K10 D10 K4 D7 K7 G4 G10 G7|D4 G4 K4 D7 G7 K7 D10 G10 K10]
47 list_stones black
#? [D4 G4 K4 D7 G7 K7 D10 G10 K10]
48 list_stones white
#? []

# 19x19
boardsize 19
clear_board
49 fixed_handicap 2
#? [D4 Q16]
50 list_stones black
#? [D4 Q16]
51 list_stones white
#? []
clear_board
52 fixed_handicap 3
#? [D4 Q16 D16|D4 D16 Q16]
53 list_stones black
#? [D4 D16 Q16]
54 list_stones white
#? []
clear_board
55 fixed_handicap 4
#? [D4 Q16 D16 Q4|D4 Q4 D16 Q16]
56 list_stones black
#? [D4 Q4 D16 Q16]
57 list_stones white
#? []
clear_board
58 fixed_handicap 5
#? [D4 Q16 D16 Q4 K10|D4 Q4 K10 D16 Q16]
59 list_stones black
#? [D4 Q4 K10 D16 Q16]
60 list_stones white
#? []
clear_board
61 fixed_handicap 6
#? [D4 Q16 D16 Q4 D10 Q10|D4 Q4 D10 Q10 D16 Q16]
62 list_stones black
#? [D4 Q4 D10 Q10 D16 Q16]
63 list_stones white
#? []
clear_board
64 fixed_handicap 7
#? [D4 Q16 D16 Q4 D10 Q10 K10|D4 Q4 D10 K10 Q10 D16 Q16]
65 list_stones black
#? [D4 Q4 D10 K10 Q10 D16 Q16]
66 list_stones white
#? []
clear_board
67 fixed_handicap 8
#? [D4 Q16 D16 Q4 D10 Q10 K4 K16|D4 K4 Q4 D10 Q10 D16 K16 Q16]
68 list_stones black
#? [D4 K4 Q4 D10 Q10 D16 K16 Q16]
69 list_stones white
#? []
clear_board
70 fixed_handicap 9
#? [D4 Q16 D16 Q4 D10 Q10 K4 K16 K10|D4 K4 Q4 D10 K10 Q10 D16 K16 Q16]
71 list_stones black
#? [D4 K4 Q4 D10 K10 Q10 D16 K16 Q16]
72 list_stones white
#? []

# Handicap stones count for Black like any stone: the last board above.
komi 0
80 final_score
#? [B\+361]
komi 0.5
81 final_score
#? [B\+360\.5]

# place_free_handicap: the engine chooses; it answers as many vertices as
# asked, and they are on the board.
boardsize 9
clear_board
82 place_free_handicap 2
#? [[A-HJ][1-9] [A-HJ][1-9]]
83 list_stones black
#? [[A-HJ][1-9] [A-HJ][1-9]]
84 list_stones white
#? []
clear_board
85 place_free_handicap 9
#? [[A-HJ][1-9]( [A-HJ][1-9]){8}]
86 list_stones black
#? [[A-HJ][1-9]( [A-HJ][1-9]){8}]
boardsize 19
clear_board
87 place_free_handicap 5
#? [[A-HJ-T][0-9]+( [A-HJ-T][0-9]+){4}]
88 list_stones black
#? [[A-HJ-T][0-9]+( [A-HJ-T][0-9]+){4}]

# set_free_handicap: the stones given, in any order.
boardsize 9
clear_board
89 set_free_handicap G7 C3 e5
#? []
90 list_stones black
#? [C3 E5 G7]
91 countlib E5
#? [4]

# The handicap colouring is an earlier colouring: White's one-stone suicide
# in the corner eye A1 would recreate it.
clear_board
92 set_free_handicap A2 B1
#? []
93 is_legal w A1
#? [0]
94 is_legal b A1
#? [1]
95 list_stones black
#? [B1 A2]

# Ten free stones on 19x19: README promises the fixed points first, the
# nine star points of the spec's table (GTP 2 section 4.1.1), then one more;
# they were a clump of ten around the centre.
boardsize 19
clear_board
96 place_free_handicap 10
#? [D4 Q16 D16 Q4 D10 Q10 K4 K16 K10 [A-HJ-T][0-9]+]
