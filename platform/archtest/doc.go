// Package archtest holds the import-graph test that keeps the house rules of
// ../shared/ARCHITECTURE.md mechanical: modules meet only at their api packages,
// platform imports no module, and domain/api/ports stay framework-free.
package archtest
