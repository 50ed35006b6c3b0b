# Simple ko under positional superko: the immediate recapture is illegal,
# legal again after a ko threat exchange, and passes do not lift it.

boardsize 9
clear_board
komi 0

# Black D5 E6 E4 and White F6 F4 G5 make a ko at E5/F5; White's stone at E5
# is in atari.
play b D5
play b E6
play b E4
play w F6
play w F4
play w G5
play w E5
1 countlib E5
#? [1]
2 is_legal b F5
#? [1]
3 play b F5
#? []
4 color E5
#? [empty]
5 captures black
#? [1]
6 countlib F5
#? [1]

# The immediate recapture recreates the colouring before F5.
7 is_legal w E5
#? [0]
8 all_legal white
#? [!.*\bE5\b.*]
# Other white moves are fine.
9 is_legal w A1
#? [1]

# A ko threat and its answer change the board: now the recapture is new.
play w B8
play b B7
10 is_legal w E5
#? [1]
11 all_legal white
#? [.*\bE5\b.*]
12 play w E5
#? []
13 color F5
#? [empty]
14 captures white
#? [1]
15 countlib E5
#? [1]

# Black's immediate recapture is illegal in turn.
16 is_legal b F5
#? [0]
# Passes change no colouring: the recapture would still recreate the board
# after Black's B7.
play b pass
play w pass
17 is_legal b F5
#? [0]
18 list_stones black
#? [E4 D5 E6 B7]
19 list_stones white
#? [F4 E5 G5 F6 B8]

# A ko on the edge: Black C1 D2 and White E2 F1 around D1/E1.
clear_board
play b C1
play b D2
play w E2
play w F1
play w D1
20 countlib D1
#? [1]
21 play b E1
#? []
22 color D1
#? [empty]
23 countlib E1
#? [1]
24 is_legal w D1
#? [0]
25 list_stones white
#? [F1 E2]
