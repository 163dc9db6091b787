/* An example take5 bot in C (C99 and POSIX, nothing else): a starting point for a compiled
 * bot. It answers every request of the five variants (docs/protocol.md) with a legal move:
 *
 * - play (classic, Pro, Take a Number, anniversary): the card that takes the fewest bullheads
 *   if placed now; among those, the one closest to the end of its row;
 * - row: the row with the fewest bullheads that no Stop blocks;
 * - pick (Pro's draft): the card with the fewest bullheads, the lowest on a tie;
 * - keep (Take a Number): the lowest card above our #-row's end, else the lowest;
 * - place (the circle game): the lowest card, then the end of the turn; with no number card
 *   left, a special card into the first row without one of its kind;
 * - special, swap (anniversary): pass; cancel: the card taken with the most bullheads.
 *
 * Each answer is a list of choices, best first: after an `error` line the bot answers the same
 * request with its next choice. Build and test it in its folder (sdk/c/README.md):
 *
 *     cc -std=c99 -O2 -Wall -Wextra -o example_bot example_bot.c
 *     take5 selftest ./example_bot
 */
#define _POSIX_C_SOURCE 200809L

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NAME "example_c"
#define MAX_WORDS 64     /* fields of a line: an `ask` has about 25 */
#define MAX_CARDS 1024   /* cards of a list (a hand, a row, the deck) */
#define MAX_ROWS 256     /* rows of a table */
#define MAX_CHOICES 1024 /* answers to one request */
#define ANSWER_LEN 64    /* the longest answer this bot writes */

/* A line split into its words (the line itself is cut up in place). */
typedef struct {
    char *word[MAX_WORDS];
    int count;
} Words;

/* A list of numbers, `3,17,22`. */
typedef struct {
    int n;
    int v[MAX_CARDS];
} List;

/* Rows, `12,13/40/77` (or anything split by `/`: specials by row, #-rows by seat). */
typedef struct {
    int n;
    List row[MAX_ROWS];
} Rows;

/* The answers to one request, best first. */
typedef struct {
    int n;
    char text[MAX_CHOICES][ANSWER_LEN];
} Choices;

/* What the `game` line says, kept for the game's requests. */
static struct {
    char variant[32];
    int lowest;
    int row_capacity;
    List bullheads; /* card c has bullheads.v[c - lowest] */
} game;

static void split(char *line, Words *words) {
    words->count = 0;
    for (char *w = strtok(line, " \t\r\n"); w && words->count < MAX_WORDS;
         w = strtok(NULL, " \t\r\n"))
        words->word[words->count++] = w;
}

/* The value of field `key=` among the words, or NULL. Unknown keys are simply never asked for:
 * a later take5 may add fields. */
static const char *field(const Words *words, const char *key) {
    size_t len = strlen(key);
    for (int i = 0; i < words->count; i++)
        if (strncmp(words->word[i], key, len) == 0 && words->word[i][len] == '=')
            return words->word[i] + len + 1;
    return NULL;
}

static int number(const Words *words, const char *key) {
    const char *value = field(words, key);
    return value ? atoi(value) : 0;
}

/* Reads `text` up to `end` (or its end) as comma-separated numbers; an empty text is []. */
static void read_list(const char *text, const char *end, List *list) {
    list->n = 0;
    if (!text) return;
    if (!end) end = text + strlen(text);
    while (text < end && list->n < MAX_CARDS) {
        list->v[list->n++] = atoi(text);
        const char *comma = memchr(text, ',', (size_t)(end - text));
        if (!comma) break;
        text = comma + 1;
    }
}

/* Reads `a/b/c` into lists; an empty part is an empty list (`x2//plus5`). */
static void read_rows(const char *text, Rows *rows) {
    rows->n = 0;
    if (!text) return;
    for (;;) {
        const char *slash = strchr(text, '/');
        read_list(text, slash, &rows->row[rows->n++]);
        if (!slash || rows->n == MAX_ROWS) break;
        text = slash + 1;
    }
}

/* Whether the comma-separated `list` holds the word `word` (`x2,plus5` holds `x2`). */
static int has_word(const char *list, size_t list_len, const char *word) {
    size_t len = strlen(word);
    for (const char *p = list; p < list + list_len;) {
        const char *comma = memchr(p, ',', (size_t)(list + list_len - p));
        size_t part = comma ? (size_t)(comma - p) : (size_t)(list + list_len - p);
        if (part == len && strncmp(p, word, len) == 0) return 1;
        if (!comma) break;
        p = comma + 1;
    }
    return 0;
}

/* Part `n` (from 0) of `text` split by `/`: its start and length; 0 when there is none. */
static int part(const char *text, int n, const char **start, size_t *len) {
    if (!text) return 0;
    for (; n > 0; n--) {
        text = strchr(text, '/');
        if (!text) return 0;
        text++;
    }
    const char *slash = strchr(text, '/');
    *start = text;
    *len = slash ? (size_t)(slash - text) : strlen(text);
    return 1;
}

static int heads(int card) {
    int i = card - game.lowest;
    return i >= 0 && i < game.bullheads.n ? game.bullheads.v[i] : 0;
}

static int row_heads(const List *row) {
    int sum = 0;
    for (int i = 0; i < row->n; i++) sum += heads(row->v[i]);
    return sum;
}

static int contains(const List *list, int x) {
    for (int i = 0; i < list->n; i++)
        if (list->v[i] == x) return 1;
    return 0;
}

/* The cards row `r` holds before the card that takes it: Take a Number's rows hold fewer the
 * lower they are; an anniversary row with a 7 nimmt! card holds one more. */
static int capacity(int r, int rows, const List *sevens) {
    if (strcmp(game.variant, "take-a-number") == 0)
        return game.row_capacity - (rows - 1 - r);
    return game.row_capacity + (contains(sevens, r) ? 1 : 0);
}

static void add(Choices *choices, const char *format, int a, int b) {
    if (choices->n < MAX_CHOICES)
        snprintf(choices->text[choices->n++], ANSWER_LEN, format, a, b);
}

/* Sorts `n` items by `key` (ascending; a stable insertion sort: the first stays first on a tie),
 * keeping `item` and `key` together. */
static void sort_by(int *item, long *key, int n) {
    for (int i = 1; i < n; i++) {
        int it = item[i];
        long k = key[i];
        int j = i;
        for (; j > 0 && key[j - 1] > k; j--) {
            item[j] = item[j - 1];
            key[j] = key[j - 1];
        }
        item[j] = it;
        key[j] = k;
    }
}

/* ask play: each card by the bullheads it would take now (the row it would fill, or the
 * cheapest row for a card below every row), then by its distance to its row's end. */
static void choose_play(const Words *ask, Choices *choices) {
    static List hand, stops, sevens;
    static Rows rows;
    read_list(field(ask, "hand"), NULL, &hand);
    read_rows(field(ask, "rows"), &rows);
    read_list(field(ask, "stops"), NULL, &stops);
    read_list(field(ask, "sevens"), NULL, &sevens);
    int cheapest = INT_MAX;
    for (int r = 0; r < rows.n; r++)
        if (!contains(&stops, r) && row_heads(&rows.row[r]) < cheapest)
            cheapest = row_heads(&rows.row[r]);
    static int card[MAX_CARDS];
    static long key[MAX_CARDS];
    for (int i = 0; i < hand.n; i++) {
        int best = -1; /* the open row whose end is the highest below the card */
        for (int r = 0; r < rows.n; r++) {
            const List *row = &rows.row[r];
            if (row->n == 0 || contains(&stops, r)) continue; /* a row is never empty, but */
            int end = row->v[row->n - 1];
            if (end < hand.v[i] &&
                (best < 0 || end > rows.row[best].v[rows.row[best].n - 1]))
                best = r;
        }
        long cost, gap;
        if (best < 0) {
            cost = cheapest;
            gap = MAX_CARDS;
        } else {
            const List *row = &rows.row[best];
            cost = row->n >= capacity(best, rows.n, &sevens) ? row_heads(row) : 0;
            gap = hand.v[i] - row->v[row->n - 1];
        }
        card[i] = hand.v[i];
        key[i] = cost * 4 * MAX_CARDS + gap;
    }
    sort_by(card, key, hand.n);
    for (int i = 0; i < hand.n; i++) add(choices, "play %d", card[i], 0);
}

/* ask row: the rows no Stop blocks, the cheapest first. */
static void choose_row(const Words *ask, Choices *choices) {
    static List stops;
    static Rows rows;
    read_rows(field(ask, "rows"), &rows);
    read_list(field(ask, "stops"), NULL, &stops);
    int row[MAX_ROWS];
    long key[MAX_ROWS];
    int n = 0;
    for (int r = 0; r < rows.n; r++)
        if (!contains(&stops, r)) {
            row[n] = r;
            key[n++] = row_heads(&rows.row[r]);
        }
    sort_by(row, key, n);
    for (int i = 0; i < n; i++) add(choices, "row %d", row[i], 0);
}

/* ask pick, and ask cancel: the cards of `key=` by their bullheads, fewest (pick) or most
 * (cancel) first; the lowest card first on a tie. */
static void choose_by_heads(const Words *ask, const char *key_name, const char *answer,
                            int most_first, Choices *choices) {
    static List cards;
    read_list(field(ask, key_name), NULL, &cards);
    static long key[MAX_CARDS];
    for (int i = 0; i < cards.n; i++)
        key[i] = (long)(most_first ? -heads(cards.v[i]) : heads(cards.v[i])) * 4 * MAX_CARDS +
                 cards.v[i];
    sort_by(cards.v, key, cards.n);
    for (int i = 0; i < cards.n; i++) add(choices, answer, cards.v[i], 0);
}

/* ask keep: the lowest card taken above our #-row's end (our #-row stays), then the others. */
static void choose_keep(const Words *ask, Choices *choices) {
    static List cards;
    static Rows hashrows;
    read_list(field(ask, "cards"), NULL, &cards);
    read_rows(field(ask, "hashrows"), &hashrows);
    int seat = number(ask, "seat");
    int end = 0;
    if (seat < hashrows.n && hashrows.row[seat].n > 0)
        end = hashrows.row[seat].v[hashrows.row[seat].n - 1];
    static long key[MAX_CARDS];
    for (int i = 0; i < cards.n; i++)
        key[i] = (cards.v[i] > end ? 0 : 4 * MAX_CARDS) + cards.v[i];
    sort_by(cards.v, key, cards.n);
    for (int i = 0; i < cards.n; i++) add(choices, "keep %d", cards.v[i], 0);
}

/* ask place (the circle game): once a card is placed, end the turn; else a number card, the
 * lowest first; then each special card we hold into each row without one of its kind. */
static void choose_place(const Words *ask, Choices *choices) {
    static List hand;
    read_list(field(ask, "hand"), NULL, &hand);
    const char *rows = field(ask, "rows");
    if (number(ask, "placed") > 0) add(choices, "end", 0, 0);
    if (rows && *rows)
        for (int i = 0; i < hand.n; i++) add(choices, "play %d", hand.v[i], 0);
    const char *held, *in_row;
    size_t held_len, in_row_len;
    if (!part(field(ask, "held"), number(ask, "seat"), &held, &held_len)) return;
    const char *kinds[] = {"x2", "plus5"};
    for (int k = 0; k < 2; k++) {
        if (!has_word(held, held_len, kinds[k])) continue;
        for (int r = 0; part(field(ask, "rowspecials"), r, &in_row, &in_row_len); r++)
            if (!has_word(in_row, in_row_len, kinds[k]))
                add(choices, k == 0 ? "special x2 %d" : "special plus5 %d", r, 0);
    }
}

/* The answers to `ask KIND ...`, best first. */
static void choose(const Words *ask, Choices *choices) {
    const char *kind = ask->count > 1 ? ask->word[1] : "";
    choices->n = 0;
    if (strcmp(kind, "play") == 0) choose_play(ask, choices);
    else if (strcmp(kind, "row") == 0) choose_row(ask, choices);
    else if (strcmp(kind, "pick") == 0) choose_by_heads(ask, "pool", "pick %d", 0, choices);
    else if (strcmp(kind, "keep") == 0) choose_keep(ask, choices);
    else if (strcmp(kind, "place") == 0) choose_place(ask, choices);
    else if (strcmp(kind, "cancel") == 0) choose_by_heads(ask, "cards", "cancel %d", 1, choices);
    /* special and swap, cancel's last choice, and any request a later take5 may add: pass. */
    if (choices->n == 0 || strcmp(kind, "cancel") == 0) add(choices, "pass", 0, 0);
}

static void say(const char *line) {
    printf("%s\n", line);
    fflush(stdout); /* take5 waits for the line */
}

int main(void) {
    char *line = NULL;
    size_t size = 0;
    static Words words;
    static Choices choices;
    int tries = 0;    /* errors on the current request */
    int asked = 0;    /* a request is open */
    while (getline(&line, &size, stdin) != -1) {
        split(line, &words);
        if (words.count == 0) continue;
        const char *kind = words.word[0];
        if (strcmp(kind, "hello") == 0) {
            /* It decides from each request alone: it declines the event lines. */
            say("hello version=1 name=" NAME " events=no");
        } else if (strcmp(kind, "game") == 0) {
            snprintf(game.variant, sizeof game.variant, "%s",
                     field(&words, "variant") ? field(&words, "variant") : "");
            game.lowest = number(&words, "lowest");
            game.row_capacity = number(&words, "row_capacity");
            read_list(field(&words, "bullheads"), NULL, &game.bullheads);
        } else if (strcmp(kind, "ask") == 0) {
            choose(&words, &choices); /* the request is read once, its answers kept */
            tries = 0;
            asked = 1;
            say(choices.text[0]);
        } else if (strcmp(kind, "error") == 0) {
            /* Our last answer was refused: stderr is ours, take5 shows its last lines. */
            fprintf(stderr, NAME ": refused:");
            for (int i = 1; i < words.count; i++) fprintf(stderr, " %s", words.word[i]);
            fprintf(stderr, "\n");
            if (!asked) {
                say("hello version=1 name=" NAME " events=no");
            } else {
                tries++;
                say(choices.text[tries % choices.n]); /* the next choice, round again */
            }
        } else if (strcmp(kind, "bye") == 0) {
            break;
        }
    }
    free(line);
    return 0;
}
