#!/usr/bin/env python3
"""mxsim as the hardware cost function of an Optuna search.

Searches group size, array width and PE lanes for the bundled BERT-base trace, minimising
(energy, -SQNR) together: each trial is one mxsim.sweep point (cycles, energy and the SQNR of the
bit-exact MXINT8 GEMMs against float64).  Prints the Pareto front.

    pip install ./python optuna && python3 workloads/examples/optuna_search.py --trials 30
"""
import argparse
import os

import optuna

import mxsim

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--trials", type=int, default=30)
    ap.add_argument("--config", default=os.path.join(ROOT, "workloads", "configs", "medium.ini"))
    ap.add_argument("--trace", default=os.path.join(ROOT, "traces", "bert-base.trace"))
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    config, trace = mxsim.Config(args.config), mxsim.Trace.load(args.trace)

    def objective(trial):
        axes = {"mx.group_size": [trial.suggest_categorical("group_size", [8, 16, 32, 64, 128])],
                "array.size": [trial.suggest_categorical("array_width", [8, 16, 32, 64])],
                "pe.lanes": [trial.suggest_categorical("lanes", [1, 2, 4])]}
        rows = mxsim.sweep(config, trace, axes, sample_rows=16, sample_cols=16, threads=1)
        total = next(r for r in rows if r["op"] == "TOTAL")
        if total["status"] != "ok":
            raise optuna.TrialPruned(total["status"])
        trial.set_user_attr("cycles", total["cycles_total"])
        return total["energy_mj"], total["sqnr_db"]

    optuna.logging.set_verbosity(optuna.logging.WARNING)
    study = optuna.create_study(directions=["minimize", "maximize"],
                                sampler=optuna.samplers.TPESampler(seed=args.seed))
    study.optimize(objective, n_trials=args.trials)
    print(f"{len(study.trials)} trials; best (Pareto front: energy mJ, SQNR dB):")
    seen = set()
    for t in sorted(study.best_trials, key=lambda t: t.values[0]):
        p = t.params
        if tuple(sorted(p.items())) in seen:  # the sampler may repeat a design point
            continue
        seen.add(tuple(sorted(p.items())))
        print(f"  G={p['group_size']:<4} array={p['array_width']}x{p['array_width']:<3} lanes={p['lanes']}  "
              f"energy={t.values[0]:.4f} mJ  SQNR={t.values[1]:.2f} dB  cycles={t.user_attrs['cycles']}")


if __name__ == "__main__":
    main()
