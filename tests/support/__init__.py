"""Helpers the tests share: fake servers, builders of documents, process checks."""
