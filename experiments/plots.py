"""Plot pieces shared by the training scripts."""


def plot_win_rate(ax, steps, rate, low, high, label):
    """A win-rate curve with its 95% interval as a band, on a 0..1 axis."""
    ax.plot(steps, rate, marker="o", label=label)
    ax.fill_between(steps, low, high, alpha=0.25, label="95% interval")
    ax.set_ylabel("win rate")
    ax.set_ylim(0, 1)
    ax.legend(loc="lower right")
