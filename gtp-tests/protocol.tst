# Protocol basics: identification, known_command, list_commands and the
# input preprocessing of GTP v2 (comments, case, ids).

1 protocol_version
#? [2]

2 name
#? [hane]

# The crate version, e.g. 0.1.0
3 version
#? [[0-9]+\.[0-9]+\.[0-9]+(-[0-9A-Za-z.]+)?]

4 known_command no_such_command
#? [false]

# list_commands: one name a line, no trailing spaces
6 list_commands
#? [!.* $.*]

# Every command hane implements is known and listed.
10 known_command protocol_version
#? [true]
11 list_commands
#? [.*^protocol_version$.*]

12 known_command name
#? [true]
13 list_commands
#? [.*^name$.*]

14 known_command version
#? [true]
15 list_commands
#? [.*^version$.*]

16 known_command known_command
#? [true]
17 list_commands
#? [.*^known_command$.*]

18 known_command list_commands
#? [true]
19 list_commands
#? [.*^list_commands$.*]

20 known_command quit
#? [true]
21 list_commands
#? [.*^quit$.*]

22 known_command boardsize
#? [true]
23 list_commands
#? [.*^boardsize$.*]

24 known_command clear_board
#? [true]
25 list_commands
#? [.*^clear_board$.*]

26 known_command komi
#? [true]
27 list_commands
#? [.*^komi$.*]

28 known_command play
#? [true]
29 list_commands
#? [.*^play$.*]

30 known_command genmove
#? [true]
31 list_commands
#? [.*^genmove$.*]

32 known_command reg_genmove
#? [true]
33 list_commands
#? [.*^reg_genmove$.*]

34 known_command kgs-genmove_cleanup
#? [true]
35 list_commands
#? [.*^kgs-genmove_cleanup$.*]

36 known_command undo
#? [true]
37 list_commands
#? [.*^undo$.*]

38 known_command showboard
#? [true]
39 list_commands
#? [.*^showboard$.*]

40 known_command final_score
#? [true]
41 list_commands
#? [.*^final_score$.*]

42 known_command final_status_list
#? [true]
43 list_commands
#? [.*^final_status_list$.*]

44 known_command fixed_handicap
#? [true]
45 list_commands
#? [.*^fixed_handicap$.*]

46 known_command place_free_handicap
#? [true]
47 list_commands
#? [.*^place_free_handicap$.*]

48 known_command set_free_handicap
#? [true]
49 list_commands
#? [.*^set_free_handicap$.*]

50 known_command loadsgf
#? [true]
51 list_commands
#? [.*^loadsgf$.*]

52 known_command printsgf
#? [true]
53 list_commands
#? [.*^printsgf$.*]

54 known_command time_settings
#? [true]
55 list_commands
#? [.*^time_settings$.*]

56 known_command time_left
#? [true]
57 list_commands
#? [.*^time_left$.*]

58 known_command kgs-time_settings
#? [true]
59 list_commands
#? [.*^kgs-time_settings$.*]

60 known_command gogui-analyze_commands
#? [true]
61 list_commands
#? [.*^gogui-analyze_commands$.*]

62 known_command gogui-interrupt
#? [true]
63 list_commands
#? [.*^gogui-interrupt$.*]

64 known_command is_legal
#? [true]
65 list_commands
#? [.*^is_legal$.*]

66 known_command all_legal
#? [true]
67 list_commands
#? [.*^all_legal$.*]

68 known_command list_stones
#? [true]
69 list_commands
#? [.*^list_stones$.*]

70 known_command color
#? [true]
71 list_commands
#? [.*^color$.*]

72 known_command countlib
#? [true]
73 list_commands
#? [.*^countlib$.*]

74 known_command captures
#? [true]
75 list_commands
#? [.*^captures$.*]

# Preprocessing: a comment after the command is cut, vertices and colours
# are case-insensitive, PASS is a move.
boardsize 9
clear_board

100 play b d4 # lower case vertex and a comment
#? []

101 color D4
#? [black]

102 play W PASS
#? []

103 play white pass
#? []

104 play BLACK e5
#? []

105 list_stones b
#? [D4 E5]

106 list_stones white
#? []

107 color e5
#? [black]

