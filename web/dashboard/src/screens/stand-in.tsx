/**
 * Locally, drafting runs a stand-in that marks its drafts ("[TA machine draft] Accept all")
 * instead of translating; a DPO trying the local stack must not mistake them for translations
 * (issue 37). Shown wherever a DPO drafts or reviews drafts while the service's translator is
 * the stand-in (GET /words: translator.standIn).
 */
export const StandInNote = ({ what }: { what: string }) => (
  <p class="notice">
    This is the local stack: {what} come from a stand-in translator that writes "[TA machine draft]" before the English. They are not translations: they show where drafts
    go and that drafting works. In AWS, Amazon Translate drafts the languages it knows, and a person still reviews every draft before it is relied on.
  </p>
);
