# GTP lets the same colour play twice in a row (GoGui and Sabaki set up
# positions that way). Strings, liberties and captures work as usual.

boardsize 9
clear_board
komi 0

1 play b E5
#? []
2 play b E6
#? []
3 play b E4
#? []
4 list_stones black
#? [E4 E5 E6]
5 countlib E5
#? [8]

# White surrounds the string with eight moves in a row; the last captures.
play w D4
play w D5
play w D6
play w F4
play w F5
play w F6
play w E3
6 countlib E6
#? [1]
7 play w E7
#? []
8 list_stones black
#? []
9 captures white
#? [3]

# A player may also pass twice, or pass and play again.
10 play w pass
#? []
11 play w pass
#? []
12 play w E5
#? []
13 color E5
#? [white]

# Whoever moved before, Black in White's eye E5 is a one-stone suicide.
clear_board
play w D5
play w F5
play w E4
play w E6
14 is_legal b E5
#? [0]
play b A1
15 is_legal b E5
#? [0]
play b A2
16 is_legal b E5
#? [0]
