// LiveMessage moved to web/src/components/live-message.tsx, shared by every feature; this stays
// only until the last import of the old path (the watched export's controls) follows it.
export { LiveMessage } from "../../../components/live-message.tsx";
