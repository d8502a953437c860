// The application's fields as the apply page draws them without JavaScript (the server's
// HTML): what a refused post sent back in every field, as text; the campaigns a plain list
// of checkboxes, the chosen ones ticked; the modal's searchable picker only with state.

import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { ApplicationFields } from "./ApplicationFields";
import { EMPTY_APPLICATION } from "./campaignApplication";

const CAMPAIGNS = ["Roofing Inbound Calls", "Windows & Doors Transfers", "Solar Transfers - Utility Bill $150+"];

describe("the apply page's fields", () => {
  const html = renderToStaticMarkup(
    <ApplicationFields
      idPrefix="apply"
      campaigns={CAMPAIGNS}
      values={{
        ...EMPTY_APPLICATION,
        firstName: "<b>Omar</b>",
        additionalInfo: "</textarea><script>alert(1)</script>",
        experience: "expert",
        monthlyVolume: "1-50",
        selectedCampaigns: ["Windows & Doors Transfers", "No Such Campaign"],
      }}
    />,
  );

  it("hold what the refused post sent, as text", () => {
    expect(html).toContain('value="&lt;b&gt;Omar&lt;/b&gt;"');
    expect(html).toContain("&lt;/textarea&gt;&lt;script&gt;alert(1)&lt;/script&gt;</textarea>");
    expect(html).not.toContain("<script>");
    expect(html).toContain('<option value="expert" selected="">');
    expect(html).toContain('<option value="1-50" selected="">');
  });

  it("list every live campaign as a checkbox, the chosen ones ticked, without the modal's picker", () => {
    expect(html.match(/name="selectedCampaigns"/g)).toHaveLength(CAMPAIGNS.length);
    expect(html.match(/checked=""/g)).toHaveLength(1);
    expect(html).toContain('checked="" value="Windows &amp; Doors Transfers"');
    expect(html).toContain("Tick every campaign you want to run.");
    expect(html).not.toContain("Find a campaign to add");
  });
});

describe("the modal's fields", () => {
  it("choose the campaigns in the searchable picker", () => {
    const html = renderToStaticMarkup(
      <ApplicationFields
        idPrefix="dialog"
        campaigns={CAMPAIGNS}
        values={{ ...EMPTY_APPLICATION, selectedCampaigns: ["Roofing Inbound Calls"] }}
        onChange={() => {}}
      />,
    );
    expect(html).toContain("Find a campaign to add");
    expect(html).toContain('aria-label="Selected campaigns"');
    expect(html).toContain("data-autofocus");
  });
});
