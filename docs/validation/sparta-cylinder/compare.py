# Collisions per particle per step, sum of collisions / sum of particles over a window of steps, for dsmc runs
# (a run database: every run in it) and SPARTA logs (stats 1, stats_style step np nattempt ncoll); mean +- standard
# error over runs. Usage: python3 compare.py DATA/runs.sqlite 'log.s*' FIRST LAST
import glob, sqlite3, statistics as st, sys

def window(rows, a, b):
    """Collisions over particles of the steps a..b (rows: step, particles, collisions)."""
    return sum(r[2] for r in rows if a <= r[0] <= b) / sum(r[1] for r in rows if a <= r[0] <= b)

def sparta(path):
    """The (step, np, ncoll) rows of a SPARTA log."""
    rows, on = [], False
    for line in open(path):
        p = line.split()
        if p[:2] == ['Step', 'Np']:
            on = True
        elif on and len(p) == 4 and p[0].isdigit():
            rows.append((int(p[0]), int(p[1]), int(p[3])))
        else:
            on = False
    return rows

def ours(db):
    """The (step, particles after the step, collisions) rows of every run in a dsmc database."""
    con = sqlite3.connect(db)
    ids = [r[0] for r in con.execute('select id from runs order by id')]
    return [list(con.execute('select step, particles, collisions from run_steps where run_id=? order by step', (i,))) for i in ids]

def mean_err(xs):
    """Mean and its standard error."""
    return st.mean(xs), st.stdev(xs) / len(xs) ** 0.5

db, logs, a, b = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
(ms, es), (mo, eo) = mean_err([window(sparta(f), a, b) for f in sorted(glob.glob(logs))]), mean_err([window(r, a, b) for r in ours(db)])
print(f'steps {a}-{b}: SPARTA {ms:.6f} +- {es:.6f}, dsmc {mo:.6f} +- {eo:.6f}, dsmc / SPARTA {mo / ms:.5f} +- {((es / ms) ** 2 + (eo / mo) ** 2) ** 0.5:.5f}')
