#!/bin/sh
# A take5 bot in plain POSIX sh, using only the shell's builtins: it plays its lowest card and
# takes the row with the fewest bullheads; in a draft (`ask pick`) it picks the lowest card; in
# Take a Number it keeps the first of the cards it took for its #-row; in the circle game
# (`ask place`) it places its lowest card and ends its turn, and with only special cards left it
# puts the first one into the first row without one of its kind; in the anniversary variant it
# plays no special card (`pass`) and takes no row a Stop blocks. After an `error` line it
# answers the same request again with its next choice (the next card up, the next row along).
# Protocol: docs/protocol.md.

set -f              # lines are split into words below: never expand them as file patterns
cr=$(printf '\r')   # to drop the \r of a line that ends in \r\n
name=shell_bot
lowest=1 bullheads= ask= request= tries=0

# field KEY WORD...: sets $value to the value of the KEY=value word among the WORDs.
field() {
    key=$1
    shift
    value=
    for word; do
        case $word in
        "$key"=*) value=${word#*=}; return 0 ;;
        esac
    done
    return 1
}

# heads CARDS: sets $sum to the bullheads of the comma-separated CARDS, from the game line's
# `lowest` and `bullheads`.
heads() {
    sum=0
    IFS=,
    for card in $1; do
        number=$lowest
        for b in $bullheads; do
            if [ "$number" -eq "$card" ]; then
                sum=$((sum + b))
                break
            fi
            number=$((number + 1))
        done
    done
    unset IFS
}

# nth N SEP TEXT: sets $value to field N (from 0) of TEXT split at SEP, empty if there is none.
nth() {
    n=$1
    IFS=$2
    set -- $3
    unset IFS
    value=
    i=0
    for part; do
        if [ "$i" -eq "$n" ]; then
            value=$part
            return 0
        fi
        i=$((i + 1))
    done
    return 1
}

# special_move ROWS ROWSPECIALS HELD SEAT: sets $move to `special <kind> <row>` for the first
# special card SEAT holds and the first row without one of its kind (the circle game), skipping
# $tries such moves.
special_move() {
    rows=$1 rowspecials=$2 held=$3 seat=$4
    nth "$seat" / "$held"
    mine=$value
    skip=$tries
    move=
    IFS=/
    set -- $rows
    unset IFS
    count=$#
    IFS=,
    for kind in $mine; do
        unset IFS
        row=0
        while [ "$row" -lt "$count" ]; do
            nth "$row" / "$rowspecials"
            case ",$value," in
            *",$kind,"*) ;;
            *)
                move="special $kind $row"
                if [ "$skip" -eq 0 ]; then
                    return 0
                fi
                skip=$((skip - 1))
                ;;
            esac
            row=$((row + 1))
        done
    done
    unset IFS
}

# answer: replies to the current request ($ask is play, row, pick or keep, $request its
# fields), taking the choice after the best one once per error ($tries).
answer() {
    set -- $request
    if [ "$ask" = special ] || [ "$ask" = cancel ] || [ "$ask" = swap ]; then
        printf 'pass\n'
    elif [ "$ask" = play ] || [ "$ask" = pick ]; then
        if [ "$ask" = play ]; then
            field hand "$@"
        else
            field pool "$@"
        fi
        IFS=,
        set -- $value
        unset IFS
        skip=$tries   # the hand is ascending: the lowest card comes first
        while [ "$skip" -gt 0 ] && [ $# -gt 1 ]; do
            shift
            skip=$((skip - 1))
        done
        printf '%s %s\n' "$ask" "$1"
    elif [ "$ask" = place ]; then
        field placed "$@"
        placed=$value
        field hand "$@"
        hand=$value
        if [ "$placed" -gt 0 ] && [ "$tries" -eq 0 ]; then
            printf 'end\n'
        elif [ -n "$hand" ]; then
            IFS=,
            set -- $hand
            unset IFS
            skip=$tries   # the hand is ascending: the lowest card comes first
            while [ "$skip" -gt 0 ] && [ $# -gt 1 ]; do
                shift
                skip=$((skip - 1))
            done
            printf 'play %s\n' "$1"
        else
            field rows "$@"
            rows=$value
            field rowspecials "$@"
            rowspecials=$value
            field held "$@"
            held=$value
            field seat "$@"
            special_move "$rows" "$rowspecials" "$held" "$value"
            printf '%s\n' "$move"
        fi
    elif [ "$ask" = keep ]; then
        field cards "$@"
        IFS=,
        set -- $value
        unset IFS
        skip=$tries   # the next card taken after each error
        while [ "$skip" -gt 0 ] && [ $# -gt 1 ]; do
            shift
            skip=$((skip - 1))
        done
        printf 'keep %s\n' "$1"
    else
        stops=
        field stops "$@" && stops=",$value,"
        field rows "$@"
        IFS=/
        set -- $value
        unset IFS
        row=0 best=0 least=
        for cards; do
            case $stops in
            *",$row,"*) ;;  # a Stop blocks this row (anniversary)
            *)
                heads "$cards"
                if [ -z "$least" ] || [ "$sum" -lt "$least" ]; then
                    best=$row least=$sum
                fi
                ;;
            esac
            row=$((row + 1))
        done
        printf 'row %s\n' $(((best + tries) % row))
    fi
}

while IFS= read -r line || [ -n "$line" ]; do
    line=${line%"$cr"}
    set -- $line
    case ${1-} in
    hello)
        # Each `ask` has all this bot needs: it declines the `event` lines (fewer to read).
        printf 'hello version=1 name=%s events=no\n' "$name"
        ;;
    game)
        shift
        field lowest "$@" && lowest=$value
        field bullheads "$@" && bullheads=$value
        ;;
    ask)
        ask=${2-}
        [ $# -ge 2 ] && shift 2
        request=$*
        tries=0
        answer
        ;;
    error)
        # stderr is ours: take5 keeps its last lines to show with a fault.
        printf '%s: referee said: %s\n' "$name" "$line" >&2
        if [ -z "$ask" ]; then
            printf 'hello version=1 name=%s events=no\n' "$name"
        else
            tries=$((tries + 1))
            answer
        fi
        ;;
    bye)
        exit 0
        ;;
    esac
done
exit 0
