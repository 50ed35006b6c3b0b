# When hane passes, and when it must not (Tromp-Taylor: no dead-stone
# removal, so dead stones must be captured before passing).
# A one-second byo-yomi keeps each search short.

time_settings 0 1 1

# 5x5: Black wall on column C, White wall on column D with two stones on
# column E, so that White has three one-point eyes (E1 E3 E5) that no
# playout fills. Black's area is columns A-C (15), White's D-E (10).
boardsize 5
clear_board
komi 0.5
play b C1
play w D1
play b C2
play w D2
play b C3
play w D3
play b C4
play w D4
play b C5
play w D5
play w E2
play w E4

# A dead White stone at A3 makes all of Black's empty points reach White:
# passing now would lose (W+6.5 as it stands), so Black must play on.
play w A3
1 final_score
#? [W\+6\.5]
2 reg_genmove b
#? [!pass|resign]

# Even after White passes, the count as it stands loses for Black: play on.
play w pass
3 reg_genmove b
#? [!pass|resign]

# Black captures the dead stone.
play b A2
play w pass
play b A4
play w pass
play b B3
4 list_stones white
#? [D1 D2 E2 D3 D4 E4 D5]
5 final_score
#? [B\+4\.5]

# White plays a neutral move (the count does not change: E1 stays White's
# as a stone). The board is scored out and Black, to move, passes.
play w E1
6 final_score
#? [B\+4\.5]
7 reg_genmove b
#? [pass]

# White passes and the count as it stands wins for Black: Black passes,
# ending the game.
play w pass
8 genmove b
#? [pass]
9 final_score
#? [B\+4\.5]

# Dame decide the game: with the walls one point apart the empty column C
# reaches both colours. Black 10, White 10 (each with three one-point
# eyes), komi 0.5: Black must fill dame.
boardsize 5
clear_board
komi 0.5
play b B1
play w D1
play b B2
play w D2
play b B3
play w D3
play b B4
play w D4
play b B5
play w D5
play b A2
play w E2
play b A4
play w E4
10 final_score
#? [W\+0\.5]
11 reg_genmove b
#? [C[1-5]]

# An open board is never scored out, whatever the count as it stands: the
# empty board loses for Black by komi, and Black must still play.
boardsize 19
clear_board
komi 7.5
12 reg_genmove b
#? [!pass|resign]
boardsize 9
clear_board
13 reg_genmove b
#? [!pass|resign]
play b E5
play w pass
14 reg_genmove b
#? [pass]

# The opponent passes and the count as it stands already wins, but a dead
# White stone stands inside Black's area: Black captures it before passing,
# so the count it ends on is the one a referee removing dead stones gives.
# 7x7: Black walls on column E and row 3, White's wall on column F with four
# one-point eyes on column G; the dead White stone at B2 spoils only the
# eight points below row 3. Black 27, White 15, komi 0.5.
boardsize 7
clear_board
komi 0.5
play b E1
play b E2
play b E3
play b E4
play b E5
play b E6
play b E7
play w F1
play w F2
play w F3
play w F4
play w F5
play w F6
play w F7
play w G2
play w G4
play w G6
play b A3
play b B3
play b C3
play b D3
play w B2
15 final_score
#? [B\+11\.5]
play w pass
16 reg_genmove b
#? [A2|C2|B1]
play b A2
play w pass
play b C2
play w pass
17 reg_genmove b
#? [B1]
play b B1
18 list_stones white
#? [F1 F2 G2 F3 F4 G4 F5 F6 G6 F7]
play w pass
19 reg_genmove b
#? [pass]

# A board that counts as scored out only because the search's own best move
# closes it: Black's G6-H6 has two liberties, G5 and H5, and White at G5
# ataris it and breaks into Black's area. The playouts nearly all began with
# Black G5, so their ownership matched the count (B+1.5) and hane passed
# here in a game GNU Go then won. Before passing while the opponent has not,
# the opponent's reply to the pass is searched.
boardsize 9
clear_board
komi 7.5
play b C3
play w F7
play b F5
play w C7
play b H6
play w D5
play b D4
play w H7
play b G6
play w G7
play b B5
play w B6
play b C5
play w J6
play b J5
play w J7
play b H4
play w E5
play b E4
play w A6
play b A5
play w C6
play b G3
play w F6
20 final_score
#? [B\+1\.5]
21 reg_genmove b
#? [!pass|resign]
