"""Plot pieces shared by the training scripts."""

import csv


def plot_win_rate(ax, steps, rate, low, high, label):
    """A win-rate curve with its 95% interval as a band, on a 0..1 axis."""
    ax.plot(steps, rate, marker="o", label=label)
    ax.fill_between(steps, low, high, alpha=0.25, label="95% interval")
    ax.set_ylabel("win rate")
    ax.set_ylim(0, 1)
    ax.legend(loc="lower right")


def plot_learning_curve(log, path, title, opponents, x_column, x_label):
    """A PNG of the win rate against ``opponents`` logged in the CSV ``log`` (its ``win_rate``,
    ``ci_low`` and ``ci_high`` columns) over its ``x_column``."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    with log.open() as f:
        rows = list(csv.DictReader(f))
    fig, ax = plt.subplots(figsize=(6, 3.5))
    plot_win_rate(
        ax,
        [int(r[x_column]) for r in rows],
        [float(r["win_rate"]) for r in rows],
        [float(r["ci_low"]) for r in rows],
        [float(r["ci_high"]) for r in rows],
        f"win rate vs {opponents}",
    )
    ax.set_xlabel(x_label)
    ax.set_title(title)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
