"""The generated hardware documents (hardware/wiring.md, hardware/bom.csv), one module per
job: facts (inputs), electrical (pull-ups, current budget), markdown, wiring, panel, bom.
The public entry point is dialtray.builder.hardware_docs."""
