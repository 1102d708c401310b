#!/usr/bin/env python3
# Makes the hand-checked observation logs of tests/fixtures/referee/ (run from
# the top of the project: python3 samples/make_referee_logs.py). A tiny Go
# board (captures only) writes the stable positions a camera would see; each
# log then stages one situation the referee must rule on. The logs are
# committed: rerun this only to change them, and read the diff.
# tiny log maker: board ops on an NxN grid; emits observation log text
import sys
L="ABCDEFGHJKLMNOPQRST"
class B:
    def __init__(s,n): s.n=n; s.g=[['.']*n for _ in range(n)]; s.t=0.0; s.out=[]
    def xy(s,p): x=L.index(p[0]); y=s.n-int(p[1:]); return x,y
    def nb(s,x,y):
        for dx,dy in ((1,0),(-1,0),(0,1),(0,-1)):
            if 0<=x+dx<s.n and 0<=y+dy<s.n: yield x+dx,y+dy
    def group(s,x,y):
        c=s.g[y][x]; st=[(x,y)]; seen={(x,y)}; libs=set()
        while st:
            a,b=st.pop()
            for u,v in s.nb(a,b):
                if s.g[v][u]=='.': libs.add((u,v))
                elif s.g[v][u]==c and (u,v) not in seen: seen.add((u,v)); st.append((u,v))
        return seen,libs
    def put(s,c,p): x,y=s.xy(p); s.g[y][x]=c
    def lift(s,p): x,y=s.xy(p); s.g[y][x]='.'
    def captured(s,c,p):
        x,y=s.xy(p); o='O' if c=='X' else 'X'; res=set()
        for u,v in s.nb(x,y):
            if s.g[v][u]==o:
                gp,libs=s.group(u,v)
                if not libs: res|=gp
        return res
    def liftset(s,pts):
        for x,y in pts: s.g[y][x]='.'
    def see(s,dt=1.0):
        s.t+=dt; s.out.append("@ %g"%s.t); s.out+=["".join(r) for r in s.g]
    def cmd(s,c,dt=1.0):
        s.t+=dt; s.out.append("@ %g %s"%(s.t,c))
    def play(s,c,p,lift=True):
        s.put(c,p); caps=s.captured(c,p); s.see()
        if caps and lift: s.liftset(caps); s.see(0.5)
        return caps
    def text(s): return "\n".join(s.out)+"\n"

D='tests/fixtures/referee/'
def save(name, b, head):
    open(D+name,'w').write("".join("# "+h+"\n" for h in head)+b.text())

# ko fight
b=B(5); b.see()
for c,p in [('X','B5'),('O','C5'),('X','A4'),('O','D4'),('X','B3'),('O','C3'),('X','E1'),('O','B4'),('X','C4')]:
    b.play(c,p)
b.put('O','B4'); b.see()             # White retakes at once: void
b.lift('B4'); b.see()                # lifted
b.play('X','E2')                     # Black plays elsewhere instead of connecting
b.play('O','B4')                     # White retakes: legal now
save('ko_fight.log', b, ["A ko fight on 5x5. Black takes the ko at C4 (move 9); White retakes",
 "at once at B4: void (article 20.1), a warning (18.3), the stone is lifted.",
 "Black plays E2; White's retake at B4 is then legal and takes C4."])

# snapback
b=B(6); b.see()
for c,p in [('X','A2'),('O','A3'),('X','B2'),('O','B3'),('X','C2'),('O','C3'),('X','C1'),('O','D3'),('X','F6'),('O','D2'),('X','F5'),('O','D1'),('X','F4'),('O','B1'),('X','A1'),('O','B1')]:
    b.play(c,p)
save('snapback.log', b, ["A snapback: White throws in at B1 (move 14), Black takes it at A1,",
 "White plays B1 again at once and takes five stones: no ko, all legal."])

# several groups at once, lifted
def four(b):
    for c,p in [('X','D6'),('O','D7'),('X','C5'),('O','C6'),('X','E5'),('O','E6'),('X','D4'),('O','B5'),('X','A1'),('O','F5'),('X','A2'),('O','C4'),('X','A3'),('O','E4'),('X','A4'),('O','D3'),('X','A6')]:
        b.play(c,p)
b=B(7); b.see(); four(b); b.play('O','D5')
save('capture_four.log', b, ["White D5 (move 18) takes four black stones at once; they are lifted."])

# missed capture: White leaves them, Black plays
b=B(7); b.see(); four(b); b.play('O','D5', lift=False); b.play('X','G1'); b.lift('D6'); b.lift('C5'); b.lift('E5'); b.lift('D4'); b.see()
save('missed_capture.log', b, ["White D5 (move 18) takes four stones but does not lift them; Black",
 "plays G1: a missed capture (article 18.2), a warning to White; then they",
 "are lifted."])

# suicide
b=B(5); b.see()
for c,p in [('X','C3'),('O','A2'),('X','C2'),('O','B1')]: b.play(c,p)
b.put('X','A1'); b.see(); b.lift('A1'); b.see(); b.play('O','E5')
save('suicide.log', b, ["Black A1 (move 5) is suicide: void (article 19), lifted; White plays on."])

# double move, then a second one: the second warning loses
b=B(9); b.see()
for c,p in [('X','E5'),('O','C3'),('X','G7')]: b.play(c,p)
b.put('X','G3'); b.see(); b.lift('G3'); b.see()
b.play('O','C7'); b.play('X','D4')
b.put('X','F4'); b.see()
save('double_move.log', b, ["Black plays twice in a row (G3 after G7): void, warning, lifted.",
 "Later Black does it again (F4 after D4): the second warning loses the game."])

# takeback
b=B(9); b.see()
for c,p in [('X','E5'),('O','C3'),('X','G7')]: b.play(c,p)
b.lift('G7'); b.put('X','G6'); b.see(); b.see()
b.lift('G6'); b.put('X','G7'); b.see()
b.play('O','C7')
save('takeback.log', b, ["Black lifts G7 (move 3) and plays it at G6: a takeback (article 17.3),",
 "seen twice, so ruled: back to G7 and a warning. The board is put back, White plays."])

# moved stone, with a one-off misread first
b=B(9); b.see()
for c,p in [('X','E5'),('O','C3'),('X','G7'),('O','G3')]: b.play(c,p)
b.lift('E5'); b.see(); b.put('X','E5'); b.see()          # a one-off misread: no ruling
b.lift('E5'); b.put('X','E4'); b.see(); b.see()          # E5 shifted to E4, lasting
b.play('X','C7')                                          # Black plays on before it is put back
b.lift('E4'); b.put('X','E5'); b.see()                    # put back
save('moved_stone.log', b, ["E5 is misread once (no ruling), then the stone shifts to E4 and stays:",
 "moved_stone from E5 to E4 (article 17.5). Black plays C7 meanwhile (a move,",
 "accepted); then E5 is put back: restored."])

# wrong removal
b=B(9); b.see()
for c,p in [('X','E5'),('O','C3'),('X','D3')]: b.play(c,p)
b.lift('C3'); b.see(); b.see()
b.put('O','C3'); b.see()
b.play('O','G5')
save('wrong_removal.log', b, ["After D3 (move 3) Black lifts the white stone at C3, which has",
 "liberties: wrong_removal (article 18.1), a warning; it is put back."])

# disturbed
b=B(9); b.see()
for c,p in [('X','E5'),('O','C3'),('X','D3'),('O','G5'),('X','C7')]: b.play(c,p)
b.lift('E5'); b.lift('C3'); b.put('X','E6'); b.put('O','B3'); b.lift('G5'); b.put('O','H5'); b.see(); b.see()
b.put('X','E5'); b.lift('E6'); b.put('O','C3'); b.lift('B3'); b.put('O','G5'); b.lift('H5'); b.see()
b.play('O','G3')
save('disturbed.log', b, ["A sleeve scatters three stones at once: disturbed (article 17.6) with the",
 "points to restore; the board is put back (restored) and the game goes on."])

# missed moves: two and three stones at once
b=B(9); b.see()
b.put('X','E5'); b.put('O','C3'); b.see()                 # two moves seen at once
b.put('X','G7'); b.put('O','C7'); b.put('X','G3'); b.see()  # three: ambiguous order
b.play('O','D4')
save('missed_moves.log', b, ["The camera misses moves: E5 and C3 appear together (one order only),",
 "then G7, C7, G3 together: Black's two stones can come in either order",
 "(ambiguous: recorded in one order, flagged)."])

# end and count with a dead stone lifted
b=B(5); b.see()
for c,p in [('X','B5'),('O','C5'),('X','B4'),('O','C4'),('X','B3'),('O','C3'),('X','B2'),('O','C2'),('X','B1'),('O','C1'),('X','A2'),('O','D3'),('X','E1'),('O','E3')]:
    b.play(c,p)
b.cmd('pass'); b.cmd('pass'); b.cmd('end'); b.lift('E1'); b.see(); b.cmd('count')
save('end_count.log', b, ["A finished 5x5 game: two passes, end, the dead black stone at E1 is",
 "lifted, count: Black 10, White 15, W+6.25 with komi 3.75 (W+12.5 in points)."])

# resignation
b=B(9); b.see(); b.play('X','E5'); b.play('O','C3'); b.cmd('resign W')
save('resign.log', b, ["White resigns after two moves: B+R."])

# a stone lifted while the game goes on: the moves are still accepted
b=B(5); b.see()
for c,p in [('X','C3'),('O','D4'),('X','B2')]: b.play(c,p)
b.lift('B2'); b.see()
b.play('O','D2'); b.play('X','B4')
save('removal_during_play.log', b, ["Black's B2 (move 3) is lifted; White plays D2 with it still off: the",
 "move is accepted and the lasting removal is ruled on its own (no warning:",
 "who lifted it is not known); Black plays B4, also accepted."])

# an earlier stone gone when the next stone comes
b=B(5); b.see()
for c,p in [('X','C3'),('O','D4'),('X','B2'),('O','E1')]: b.play(c,p)
b.lift('D4'); b.see(); b.put('X','A5'); b.see(); b.see()
save('removal_then_move.log', b, ["White's D4 disappears, then Black plays A5 (seen twice): the move is",
 "accepted and D4's removal is ruled apart."])

# a captured stone dropped back while lifting
b=B(5); b.see()
for c,p in [('X','A1'),('O','A2'),('X','B1'),('O','B2'),('X','E5')]: b.play(c,p)
b.play('O','C1', lift=False)
b.lift('A1'); b.see(0.1); b.put('X','A1'); b.see(0.1); b.lift('A1'); b.lift('B1'); b.see(0.3)
b.play('X','D4'); b.play('O','D2'); b.play('X','C4')
save('capture_dropped_back.log', b, ["White C1 (move 6) takes A1 and B1; while lifting, A1 drops back on its",
 "point for a moment: still part of the capture, not a move. Then all is off",
 "and the game goes on."])

# a moved stone the referee lets stand; a disturbed board the operator restores
b=B(9); b.see()
for c,p in [('X','E5'),('O','C3'),('X','G7'),('O','G3')]: b.play(c,p)
b.lift('E5'); b.put('X','E4'); b.see(); b.see()
b.cmd('accept', 0.5)
b.see(); b.play('X','C7')
b.cmd('restore', 0.5)
save('accept_restore.log', b, ["E5 shifts to E4 (moved_stone); the referee lets it stand ('accept'): the",
 "record now has E4 and the game goes on. A 'restore' with nothing flagged",
 "changes nothing."])
