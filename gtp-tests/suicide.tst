# Suicide under Tromp-Taylor: a move that leaves two or more of the mover's
# stones without liberties is legal and removes them; a one-stone suicide
# always recreates the previous colouring, so positional superko forbids it.
# A multi-stone suicide that recreates an earlier colouring is illegal too.

boardsize 9
clear_board
komi 0

# Two-stone suicide in the corner.
play b A1
play w A2
play w B2
play w C1
1 countlib A1
#? [1]
2 is_legal b B1
#? [1]
3 play b B1
#? []
4 color A1
#? [empty]
5 color B1
#? [empty]
6 list_stones black
#? []
7 list_stones white
#? [C1 A2 B2]
8 captures black
#? [0]
9 countlib A2
#? [5]
10 countlib C1
#? [3]
# Every point now reaches only White.
11 final_score
#? [W\+81]

# A four-stone suicide in the centre: the string D5 E5 F5 plus the stone
# played at E6 fills its own last liberty.
clear_board
play b D5
play b E5
play b F5
play w C5
play w G5
play w D4
play w E4
play w F4
play w D6
play w F6
play w E7
12 countlib E5
#? [1]
13 is_legal b E6
#? [1]
14 play b E6
#? []
15 list_stones black
#? []
16 color E6
#? [empty]
17 countlib E7
#? [4]
18 captures black
#? [0]
# White may now play inside without it being a suicide.
19 is_legal w E5
#? [1]

# One-stone suicide: rejected, and is_legal leaves the board as it was.
clear_board
play w D5
play w F5
play w E4
play w E6
20 is_legal b E5
#? [0]
21 list_stones black
#? []
22 list_stones white
#? [E4 D5 F5 E6]
23 color E5
#? [empty]
24 countlib E4
#? [4]
# One-stone suicide on the edge and in the corner.
play w A2
play w B1
25 is_legal b A1
#? [0]
26 all_legal black
#? [!.*\bA1\b.*]
27 all_legal black
#? [!.*\bE5\b.*]
# White may fill its own eye.
28 is_legal w A1
#? [1]

# A two-stone suicide that would recreate an earlier colouring is illegal:
# with the white stones placed first, removing A1 and B1 leaves exactly the
# colouring before Black played A1.
clear_board
play w A2
play w B2
play w C1
play b A1
29 is_legal b B1
#? [0]
# White capturing A1 is new and legal.
30 is_legal w B1
#? [1]
31 list_stones black
#? [A1]

# Placing a stone without liberties that captures is an ordinary capture.
clear_board
play w B1
play w A2
play b C1
play b B2
play b A3
32 countlib B1
#? [1]
33 countlib A2
#? [1]
34 is_legal b A1
#? [1]
35 play b A1
#? []
36 list_stones white
#? []
37 captures black
#? [2]
38 countlib A1
#? [2]
