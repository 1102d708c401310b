/* goref rules core: replaying a record. See replay.h. */
#include "replay.h"

const char *gr_violation_name(gr_violation_kind k)
{
	static const char *names[] = {"occupied", "suicide", "ko", "repetition", "double_move"};
	return (unsigned)k < sizeof names / sizeof names[0] ? names[k] : "unknown";
}

const char *gr_violation_article(gr_violation_kind k)
{
	static const char *articles[] = {"2", "5, 19", "20.1", "6, 20", "17.2"};
	return (unsigned)k < sizeof articles / sizeof articles[0] ? articles[k] : "";
}

int gr_replay(gr_game *g, const gr_record *r, gr_violation_cb cb, void *ud)
{
	if (gr_game_board(g)->size != gr_record_size(r))
		return GR_EINVAL;
	gr_game_reset(g);
	for (int i = 0; i < gr_record_setup_count(r); i++) {
		gr_color c;
		int pt;
		gr_record_setup(r, i, &c, &pt);
		gr_game_setup(g, c, pt);
	}
	gr_color first = gr_record_first_player(r);
	if (first == GR_EMPTY) {
		const gr_move *m0 = gr_record_move(r, 0);
		/* a handicap game without PL: White moves first when the setup has
		 * black stones and the first recorded move is White's */
		first = (m0 && m0->color == GR_WHITE && gr_record_setup_count(r) > 0) ? GR_WHITE : GR_BLACK;
	}
	gr_game_set_to_move(g, first);
	int voids = 0, n = gr_record_move_count(r);
	for (int i = 0; i < n; i++) {
		const gr_move *m = gr_record_move(r, i);
		if (gr_game_state_of(g) == GR_ENDED_PASSES)
			gr_game_resume(g);
		if (gr_game_state_of(g) != GR_PLAYING)
			break;
		gr_violation v = {i + 1, m->color, m->pt, GR_V_OCCUPIED};
		bool bad = false;
		if (m->color != gr_game_to_move(g)) {
			/* a second move in a row: void (17.2); the turn stays where it was */
			v.kind = GR_V_DOUBLE_MOVE;
			if (cb)
				cb(&v, g, ud);
			voids++;
			continue;
		}
		if (m->pt == GR_PASS) {
			gr_game_pass(g, m->color);
			continue;
		}
		gr_legality l = gr_game_check(g, m->color, m->pt);
		switch (l) {
		case GR_LEGAL: break;
		case GR_OCCUPIED: v.kind = GR_V_OCCUPIED; bad = true; break;
		case GR_SUICIDE: v.kind = GR_V_SUICIDE; bad = true; break;
		case GR_KO: v.kind = GR_V_KO; bad = true; break;
		case GR_REPETITION:
			v.kind = GR_V_REPETITION;
			bad = gr_game_repetition_rule(g) == GR_REP_FORBID;
			break;
		}
		if (bad) {
			if (cb)
				cb(&v, g, ud);
			voids++;
			gr_game_forfeit(g, m->color);
			continue;
		}
		if (l == GR_REPETITION && cb)
			cb(&v, g, ud); /* reported: it ends the game under this rule */
		gr_game_play(g, m->color, m->pt);
	}
	return voids;
}
