// Make, model, year and colour, so staff can confirm they have the right car.
import type { Vehicle } from "@vics/shared";
import { SummaryList } from "../../../components/summary-list.tsx";

export function VehicleDetails({ vehicle }: { vehicle: Vehicle }) {
  return (
    <section className="result__section" aria-labelledby="vehicle-heading">
      <h3 id="vehicle-heading" className="heading-s">
        Vehicle
      </h3>
      <p className="hint">
        Check these details match the vehicle, so you can confirm it is the
        right car.
      </p>
      <SummaryList
        rows={[
          { label: "Make", value: vehicle.make },
          { label: "Model", value: vehicle.model },
          { label: "Year", value: vehicle.year },
          { label: "Colour", value: vehicle.color },
        ]}
      />
    </section>
  );
}
