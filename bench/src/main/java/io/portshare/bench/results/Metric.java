package io.portshare.bench.results;

/**
 * A figure measured in every round of a cell, e.g. requests/s or server CPU µs per request.
 * {@code key} names it in JSON and CSV, {@code label} in the text and HTML tables.
 */
public record Metric(String key, String label, int decimals) {}
