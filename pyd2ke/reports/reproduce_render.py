"""What ``python -m pyd2ke reproduce`` prints from its rows: the results
table, the table and plot of test accuracy against R, and the per-dataset
notes on whether the D2KE family beats the baselines."""

from .tables import cell, markdown_table

COLUMNS = ["dataset", "method", "test accuracy", "paper", "fit+transform s", "predict s", "CV search s",
           "chosen by CV"]


def results_table(rows):
    """The report's table: one line per row, its columns COLUMNS; a row
    without a choice (a method not run, a WARNING) shows its note instead."""
    return markdown_table(COLUMNS, [[r["dataset"], r["method"], cell(r["accuracy"], ".4f"), r["paper"],
                                     cell(r["fit"], ".2f"), cell(r["predict"], ".2f"), cell(r["search"], ".1f"),
                                     r["chosen"] or r["note"]] for r in rows])


def sweep_table(rows):
    """Test accuracy against R (prefixes of the chosen model's random objects or
    representatives; setting, gamma and C as chosen by CV), one line per row
    with a sweep."""
    swept = [r for r in rows if r.get("sweep")]
    if not swept:
        return ""
    sizes = sorted({R for r in swept for R in r["sweep"]})
    return markdown_table(["dataset", "method", *(f"R={R}" for R in sizes)],
                          [[r["dataset"], r["method"], *(cell(r["sweep"].get(R), ".4f") for R in sizes)]
                           for r in swept])


def plot_sweeps(rows, path):
    """Test accuracy against R, one panel per dataset (the RSE paper's Figure 1)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    datasets = list(dict.fromkeys(r["dataset"] for r in rows if r.get("sweep")))
    fig, axes = plt.subplots(1, len(datasets), figsize=(6 * len(datasets), 4.5), squeeze=False)
    for ax, dataset in zip(axes[0], datasets):
        for r in rows:
            if r["dataset"] == dataset and r.get("sweep"):
                sizes = sorted(r["sweep"])
                ax.plot(sizes, [r["sweep"][R] for R in sizes], marker="o", label=r["method"],
                        linestyle="--" if r["kind"] == "rsm" else "-")
        ax.set_xscale("log", base=2)
        ax.set_xlabel("R (random strings; RSM: representatives)")
        ax.set_ylabel("test accuracy")
        ax.set_title(dataset)
        ax.grid(alpha=0.3)
        ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def comparison_notes(rows):
    """Per dataset: does the best D2KE-family row beat k-NN, RSM and the peers?"""
    notes = []
    for dataset in dict.fromkeys(r["dataset"] for r in rows):
        scored = [r for r in rows if r["dataset"] == dataset and r["accuracy"] is not None]
        family = [r for r in scored if r["kind"] == "family"]
        if not family:
            continue
        best = max(family, key=lambda r: r["accuracy"])
        parts = []
        for kind, name in (("knn", "k-NN"), ("rsm", "RSM"), ("exact", "exact kernels"), ("peer", "peers")):
            others = [r for r in scored if r["kind"] == kind]
            if others:
                other = max(others, key=lambda r: r["accuracy"])
                verdict = "beats" if best["accuracy"] > other["accuracy"] else "does NOT beat"
                parts.append(f"{verdict} {other['method']} ({other['accuracy']:.4f})")
            else:
                parts.append(f"no {name} row")
        notes.append(f"- {dataset}: best D2KE-family row {best['method']} ({best['accuracy']:.4f}) " + "; ".join(parts))
    warnings_ = sum(r["kind"] == "warning" for r in rows)
    notes.append(f"- {warnings_} WARNING row(s): cross-validation chose the edge of a grid")
    return "\n".join(notes)
