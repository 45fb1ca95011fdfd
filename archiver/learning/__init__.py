"""The learning core of SOUrCe (Xu, Gao & Callan 2018, §3–4): bag-of-XPaths features, DBSCAN
page clusters with an automatic eps, kNN page classification, the Apath navigation table with
HITS-based link scores, the §4.1 sampler, and the model bundle stored as data.

Import the submodules directly; this package imports nothing heavy on its own.
"""

from __future__ import annotations
