extension RecoveryReportPage {
    /// The page's CSS. It holds no `<` or `&`, so the style element stays well-formed XML.
    static let style = """

        :root { --ink: #1c2430; --muted: #5b6675; --line: #d9dee5; --blue: #1f6feb; --amber: #c26a00;
          --red: #cf3341; --pain: #e0675e; --sleep: #5468c9; --green: #2f9e5b; --paper: #ffffff; }
        * { box-sizing: border-box; }
        body { margin: 0; background: #f3f5f8; color: var(--ink);
          font: 14px/1.45 "Helvetica Neue", Helvetica, Arial, "Liberation Sans", sans-serif; }
        main { max-width: 980px; margin: 24px auto; background: var(--paper); padding: 28px 34px 34px;
          border: 1px solid var(--line); border-radius: 6px; }
        h1 { font-size: 22px; margin: 0 0 10px; letter-spacing: 0.2px; }
        h2 { font-size: 15px; margin: 0 0 6px; text-transform: uppercase; letter-spacing: 0.6px; color: var(--muted); }
        .facts { display: flex; flex-wrap: wrap; gap: 4px 26px; margin: 0 0 16px; padding: 0 0 12px;
          border-bottom: 2px solid var(--ink); }
        .facts div { display: flex; gap: 6px; }
        .facts dt { color: var(--muted); }
        .facts dd { margin: 0; font-weight: 600; overflow-wrap: anywhere; }
        .empty-store { padding: 10px 14px; background: #fff6e0; border: 1px solid #f0d48a; border-radius: 4px; font-weight: 600; }
        .summary { display: grid; grid-template-columns: repeat(5, 1fr); gap: 10px; margin: 0 0 18px; }
        .card { border: 1px solid var(--line); border-radius: 5px; padding: 8px 10px; }
        .card-title { font-size: 11px; color: var(--muted); text-transform: uppercase; letter-spacing: 0.4px; }
        .card-value { font-size: 22px; font-weight: 700; margin: 2px 0; }
        .card-note { font-size: 12px; color: var(--muted); }
        .block { margin: 0 0 16px; break-inside: avoid; }
        svg.chart { display: block; width: 100%; height: auto; overflow: visible; }
        .grid { stroke: #e8ebef; stroke-width: 1; }
        .value-label { font-size: 10px; fill: var(--muted); text-anchor: end; dominant-baseline: middle; }
        .day-label { font-size: 10px; fill: var(--muted); text-anchor: middle; }
        .missed-band { fill: var(--red); fill-opacity: 0.06; }
        .series { fill: none; stroke: var(--blue); stroke-opacity: 0.35; stroke-width: 1.5; }
        .trend { stroke: var(--ink); stroke-width: 1.5; stroke-dasharray: 5 4; }
        .measurement.scheduled circle { fill: var(--blue); stroke: #fff; stroke-width: 1.2; }
        .measurement.unscheduled path { fill: #fff; stroke: var(--blue); stroke-width: 1.8; }
        .measurement.flagged path { fill: var(--amber); stroke: #fff; stroke-width: 1; }
        .measurement.unscheduled.flagged path { fill: #fff; stroke: var(--amber); stroke-width: 1.8; }
        .day-status rect { stroke: none; }
        .day-status.recorded rect { fill: var(--blue); fill-opacity: 0.8; }
        .day-status.missed rect { fill: var(--red); }
        .day-status.not-scheduled rect { fill: #eceff3; }
        .day-status.due rect { fill: #fff; stroke: #8c959f; stroke-width: 1; }
        .cross { stroke: #fff; stroke-width: 1.6; }
        .no-checkin { fill: url(#hatch); }
        pattern line { stroke: #d5dae1; stroke-width: 1.5; }
        rect.pain { fill: var(--pain); }
        rect.sleep { fill: var(--sleep); }
        .ring-back { fill: none; stroke: #e3e7ec; stroke-width: 3; }
        .ring { fill: none; stroke: var(--green); stroke-width: 3; }
        .adherence-day.no-tasks .ring-back { stroke: #f1f3f5; stroke-dasharray: 2 2; }
        .adherence-day rect { fill: var(--green); }
        .adherence-day.no-tasks rect, .adherence-day.no-events rect { fill: #eceff3; }
        .legend { list-style: none; display: flex; flex-wrap: wrap; gap: 4px 16px; margin: 4px 0 0 40px; padding: 0;
          font-size: 12px; color: var(--muted); }
        .legend li { display: flex; align-items: center; gap: 5px; }
        .legend svg { display: block; }
        .key-scheduled { fill: var(--blue); }
        .key-unscheduled { fill: #fff; stroke: var(--blue); stroke-width: 1.8; }
        .key-flagged { fill: var(--amber); }
        .swatch { display: inline-block; width: 14px; height: 10px; border-radius: 2px; }
        .swatch.recorded { background: var(--blue); opacity: 0.8; }
        .swatch.missed { background: var(--red); }
        .swatch.not-scheduled, .swatch.no-tasks { background: #eceff3; }
        .swatch.due { border: 1px solid #8c959f; }
        .swatch.pain { background: var(--pain); }
        .swatch.sleep { background: var(--sleep); }
        .swatch.no-checkin { background: repeating-linear-gradient(45deg, #d5dae1 0 1.5px, #fff 1.5px 4px); border: 1px solid #e3e7ec; }
        .swatch.progress { background: var(--green); }
        table.outcomes { width: 100%; border-collapse: collapse; font-size: 12px; }
        .outcomes th { text-align: left; color: var(--muted); font-weight: 600; border-bottom: 1.5px solid var(--ink); padding: 3px 6px; }
        .outcomes td { border-bottom: 1px solid #eef0f3; padding: 2px 6px; vertical-align: top; overflow-wrap: anywhere; }
        .outcomes td:nth-child(-n+2) { white-space: nowrap; }
        .outcomes tr.flagged td { background: #fff4e0; }
        .outcomes tr.flagged td:last-child { color: var(--amber); font-weight: 600; }
        .none { color: var(--muted); }
        @page { size: A4 portrait; margin: 10mm; }
        @media print {
          body { background: none; font-size: 9pt; }
          main { max-width: none; margin: 0; padding: 0; border: none; }
          h1 { font-size: 15pt; margin-bottom: 4pt; }
          h2 { font-size: 9pt; margin-bottom: 2pt; }
          .facts { margin-bottom: 8pt; padding-bottom: 6pt; font-size: 8.5pt; }
          .summary { gap: 6pt; margin-bottom: 8pt; }
          .card { padding: 4pt 6pt; }
          .card-value { font-size: 14pt; }
          .card-note, .card-title { font-size: 7pt; }
          .block { margin-bottom: 6pt; }
          .legend { font-size: 7.5pt; }
          table.outcomes { font-size: 7pt; }
          .outcomes td { padding: 0 4pt; }
          .outcomes thead { display: table-header-group; }
          .outcomes tr { break-inside: avoid; }
          #outcomes { break-inside: auto; }
          * { -webkit-print-color-adjust: exact; print-color-adjust: exact; }
        }

        """
}
