# Board queries: all_legal, countlib, list_stones, color, captures,
# final_status_list (Tromp-Taylor: every stone is alive, none dead or in seki).

# 3x3: Black A2 and B1 make an eye at A1 that White cannot fill.
boardsize 3
clear_board
komi 0
1 all_legal black
#? [A1 B1 C1 A2 B2 C2 A3 B3 C3]
play b A2
play b B1
2 all_legal white
#? [C1 B2 C2 A3 B3 C3]
3 all_legal black
#? [A1 C1 B2 C2 A3 B3 C3]
4 countlib A2
#? [3]
5 countlib B1
#? [3]
6 list_stones black
#? [B1 A2]
7 color A1
#? [empty]
8 color a2
#? [black]

# 3x3: a white cross leaves Black no legal point at all.
clear_board
play w B1
play w A2
play w C2
play w B3
9 all_legal black
#? []
10 all_legal white
#? [A1 C1 B2 A3 C3]
11 countlib B1
#? [3]
12 countlib B3
#? [3]

# 9x9: liberties of strings of several shapes.
boardsize 9
clear_board
play b E5
13 countlib E5
#? [4]
play b A1
14 countlib A1
#? [2]
play b J5
15 countlib J5
#? [3]
play b E6
play b F6
16 countlib E5
#? [7]
17 countlib F6
#? [7]
play w E4
18 countlib E6
#? [6]
19 countlib E4
#? [3]
20 color E4
#? [white]
21 list_stones black
#? [A1 E5 J5 E6 F6]
22 list_stones white
#? [E4]
23 captures black
#? [0]
24 captures white
#? [0]

# final_status_list: alive is every stone row by row; dead and seki empty.
25 final_status_list alive
#? [A1 E4 E5 J5 E6 F6]
26 final_status_list dead
#? []
27 final_status_list seki
#? []
clear_board
28 final_status_list alive
#? []
