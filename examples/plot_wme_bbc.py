"""
Documents as bags of word vectors: Word Mover's Embedding on BBC News
=====================================================================

:class:`~pyd2ke.WordMoversEmbedding` (WME) compares documents by the Earth
Mover's distance between their word vectors: how far the words of one
document must travel, in the embedding space, to become the words of the
other. Its features are the soft distances to ``R`` short random
documents. We classify the five topics of the bundled BBC News articles
(50-dimensional GloVe word vectors) and compare with the tf-idf bag of
words, which only sees exact word matches.
"""

import time

import matplotlib.pyplot as plt
import numpy as np
from sklearn.feature_extraction.text import TfidfTransformer
from sklearn.linear_model import LogisticRegression
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.svm import LinearSVC

from pyd2ke import WordMoversEmbedding
from pyd2ke.datasets import load_bbc_news

bbc = load_bbc_news()
print(f"{bbc.bow_train.shape[0]} training and {bbc.bow_test.shape[0]} test articles, "
      f"{len(bbc.vocabulary)} words, topics {bbc.classes}")

# %%
# WME features for a growing number of random documents
# -----------------------------------------------------
# With ``embeddings``, the input is the bag-of-words count matrix; the
# random documents have 1 to 6 random unit word vectors (the defaults).

Rs = [16, 32, 64, 128]
accuracies, seconds = [], []
for R in Rs:
    wme = WordMoversEmbedding(R, embeddings=bbc.embeddings, random_state=0, n_jobs=2)
    start = time.perf_counter()
    Z_train = wme.fit_transform(bbc.bow_train)
    Z_test = wme.transform(bbc.bow_test)
    seconds.append(time.perf_counter() - start)
    clf = make_pipeline(StandardScaler(), LogisticRegression(C=1.0, max_iter=2000)).fit(Z_train, bbc.y_train)
    accuracies.append(clf.score(Z_test, bbc.y_test))
    print(f"R={R:4d}: test accuracy {accuracies[-1]:.4f}, embedding {seconds[-1]:.2f} s")

# %%
# The tf-idf baseline
# -------------------
# The same counts, tf-idf weighted, into a linear SVM (one feature per
# word of the vocabulary).

start = time.perf_counter()
tfidf = TfidfTransformer().fit(bbc.bow_train)
baseline = LinearSVC(C=1.0).fit(tfidf.transform(bbc.bow_train), bbc.y_train)
tfidf_accuracy = baseline.score(tfidf.transform(bbc.bow_test), bbc.y_test)
print(f"tf-idf + linear SVM: test accuracy {tfidf_accuracy:.4f}, {time.perf_counter() - start:.2f} s")

# %%
fig, ax = plt.subplots(figsize=(6, 4))
ax.semilogx(Rs, accuracies, "o-", base=2, label="WME + logistic regression")
ax.axhline(tfidf_accuracy, color="gray", linestyle="--", label="tf-idf + linear SVM")
ax.set_xlabel("R (random documents)")
ax.set_ylabel("test accuracy")
ax.set_title("BBC News, 5 topics")
ax.legend()
fig.tight_layout()
plt.show()

# %%
# WME's features number a few hundred where tf-idf needs one per word of
# the vocabulary; on long news articles, whose topics show in many exact
# words, the bag of words is a strong baseline, as the printed accuracies
# show.
